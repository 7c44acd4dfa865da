-- Knightly database, version 6: engines built from their source, the speed of each worker,
-- and a queue of tests that `knightly work` processes play (docs/schema.md,
-- docs/regression-testing.md).

-- The commit each engine built from its source plays in a tournament: resolved once (by
-- `knightly submit`, or by the first worker) and read by every other worker, so a branch that
-- moves on does not change what a test plays. The first row written wins.
CREATE TABLE tournament_sources (
  tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
  engine        INTEGER NOT NULL,
  name          TEXT    NOT NULL,
  repo          TEXT    NOT NULL,
  ref           TEXT    NOT NULL,
  commit_sha    TEXT    NOT NULL,
  subject       TEXT    NOT NULL DEFAULT '',
  bench         INTEGER,
  resolved_at   TEXT    NOT NULL,
  PRIMARY KEY (tournament_id, engine)
);

-- An engine version built from its source names its commit: every game's white_id and black_id
-- lead to the commits that played it.
ALTER TABLE engines ADD COLUMN source_repo TEXT NOT NULL DEFAULT '';
ALTER TABLE engines ADD COLUMN source_commit TEXT NOT NULL DEFAULT '';

-- A worker (one process on one tournament) that measured its speed: the bench of the test's
-- base engine, and the factor its time controls were scaled by (fishtest's reference_nps /
-- nps). A game's factor is its worker's (games.worker_id).
ALTER TABLE workers ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);
ALTER TABLE workers ADD COLUMN nps REAL;
ALTER TABLE workers ADD COLUMN tc_factor REAL;

-- The queue: tournaments submitted for `knightly work` (`knightly submit`). A worker takes the
-- open one with the highest priority, then the fewest games. `format` says how `definition` is
-- read: a TOML config (its relative paths taken from source_path's directory), or the words
-- of `knightly sprt` quoted as a shell would.
CREATE TABLE tests (
  tournament_id INTEGER NOT NULL PRIMARY KEY REFERENCES tournaments (id),
  priority      INTEGER NOT NULL DEFAULT 0,
  submitter     TEXT    NOT NULL DEFAULT '',
  submitted_at  TEXT    NOT NULL,
  format        TEXT    NOT NULL CHECK (format IN ('toml', 'sprt')),
  definition    TEXT    NOT NULL,
  source_path   TEXT    NOT NULL DEFAULT ''
);

-- `knightly stop --all`: every `knightly work` that read a smaller stop_epoch when it started
-- finishes its game and exits.
CREATE TABLE queue_control (
  id         INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
  stop_epoch INTEGER NOT NULL DEFAULT 0
);
INSERT INTO queue_control (id, stop_epoch) VALUES (1, 0);

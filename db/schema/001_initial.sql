-- Knightly database, version 1. See docs/schema.md for what every column means.
-- Applied inside one transaction by db/store (migrations.cpp), which then sets
-- PRAGMA user_version = 1 and PRAGMA application_id.

-- One row per tournament run (or SPRT run, or batch of imported games).
CREATE TABLE tournaments (
  id            INTEGER PRIMARY KEY,
  name          TEXT    NOT NULL,
  kind          TEXT    NOT NULL DEFAULT 'run'
                CHECK (kind IN ('run', 'sprt', 'import')),
  config_text   TEXT    NOT NULL DEFAULT '',
  config_hash   TEXT    NOT NULL DEFAULT '',
  seed          INTEGER,
  status        TEXT    NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'finished', 'aborted', 'restarted')),
  started_at    TEXT    NOT NULL,
  finished_at   TEXT
);
-- A name names at most one live tournament; restarted ones keep the name under their own id.
CREATE UNIQUE INDEX tournaments_live_name ON tournaments (name) WHERE status <> 'restarted';

-- One row per distinct engine version: same name, command, options and binary hash.
CREATE TABLE engines (
  id            INTEGER PRIMARY KEY,
  name          TEXT    NOT NULL,
  command       TEXT    NOT NULL DEFAULT '',
  options       TEXT    NOT NULL DEFAULT '',
  uci_name      TEXT    NOT NULL DEFAULT '',
  uci_author    TEXT    NOT NULL DEFAULT '',
  binary_sha256 TEXT    NOT NULL DEFAULT '',
  builtin       INTEGER NOT NULL DEFAULT 0,
  first_seen    TEXT    NOT NULL,
  UNIQUE (name, command, options, binary_sha256)
);

-- One row per finished game. (tournament_id, round, pair, game_in_pair) is the game's
-- identity in its tournament's schedule: resume relies on it being unique.
CREATE TABLE games (
  id             INTEGER PRIMARY KEY,
  tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
  round          INTEGER NOT NULL,
  pair           INTEGER NOT NULL,
  game_in_pair   INTEGER NOT NULL,
  schedule_index INTEGER NOT NULL,
  white_id       INTEGER NOT NULL REFERENCES engines (id),
  black_id       INTEGER NOT NULL REFERENCES engines (id),
  opening_fen    TEXT    NOT NULL,
  opening_moves  TEXT    NOT NULL DEFAULT '',
  opening_source TEXT    NOT NULL DEFAULT '',
  result         TEXT    NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
  termination    TEXT    NOT NULL,
  reason         TEXT    NOT NULL DEFAULT '',
  plies          INTEGER NOT NULL,
  started_at     TEXT    NOT NULL,
  duration_ms    INTEGER NOT NULL DEFAULT 0,
  time_control   TEXT    NOT NULL DEFAULT '',
  pgn            TEXT    NOT NULL DEFAULT '',
  content_hash   TEXT,
  UNIQUE (tournament_id, round, pair, game_in_pair)
);
-- Every index costs a page write per stored game, so only what the queries need:
-- export order, per-engine filters, pair counts without touching the rows (covering), dates.
CREATE INDEX games_schedule ON games (tournament_id, schedule_index);
CREATE INDEX games_white ON games (white_id, black_id, result);
CREATE INDEX games_black ON games (black_id);
CREATE INDEX games_started ON games (started_at);
-- Imported games carry a hash of their content, so importing a file twice adds nothing.
CREATE UNIQUE INDEX games_content_hash ON games (content_hash) WHERE content_hash IS NOT NULL;

-- One row per half-move, book moves included.
CREATE TABLE moves (
  game_id       INTEGER NOT NULL REFERENCES games (id),
  ply           INTEGER NOT NULL,
  uci           TEXT    NOT NULL,
  san           TEXT    NOT NULL DEFAULT '',
  score_cp      INTEGER,
  mate          INTEGER,
  depth         INTEGER NOT NULL DEFAULT 0,
  seldepth      INTEGER NOT NULL DEFAULT 0,
  nodes         INTEGER NOT NULL DEFAULT 0,
  time_ms       INTEGER NOT NULL DEFAULT 0,
  clock_left_ms INTEGER,
  book          INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

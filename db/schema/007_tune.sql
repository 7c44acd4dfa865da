-- Knightly database, version 7: SPSA tunes (docs/tuning.md, docs/schema.md). A tune is a
-- tournament whose rounds are its iterations: its games, pairs, claims and leases are any
-- tournament's; these tables hold what SPSA adds, so that every iteration's values,
-- perturbation and result can be read back and a run resumes exactly.

-- The tune of a tournament: the engine tuned, the two engines its games are played by (its
-- values + c_k and - c_k), and SPSA's settings.
CREATE TABLE tunes (
  tournament_id       INTEGER NOT NULL PRIMARY KEY REFERENCES tournaments (id),
  engine              TEXT    NOT NULL,
  plus_engine         TEXT    NOT NULL,
  minus_engine        TEXT    NOT NULL,
  iterations          INTEGER NOT NULL,
  pairs_per_iteration INTEGER NOT NULL,
  delay               INTEGER NOT NULL,
  a_ratio             REAL    NOT NULL,
  alpha               REAL    NOT NULL,
  gamma               REAL    NOT NULL
);

-- One row per tuned option, in the config's order (param = 0, 1, ...).
CREATE TABLE tune_params (
  tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
  param         INTEGER NOT NULL,
  name          TEXT    NOT NULL,
  start_value   REAL    NOT NULL,
  min_value     REAL    NOT NULL,
  max_value     REAL    NOT NULL,
  c_end         REAL    NOT NULL,
  r_end         REAL    NOT NULL,
  is_integer    INTEGER NOT NULL CHECK (is_integer IN (0, 1)),
  PRIMARY KEY (tournament_id, param)
);

-- One row per iteration begun, written with its steps by the first worker to claim one of its
-- pairs (every worker computes the same; the first row written wins). Its result (the plus
-- engine's wins, draws and losses) is filled in once every game of the iteration is stored;
-- NULL until then.
CREATE TABLE tune_iterations (
  tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
  iteration     INTEGER NOT NULL,
  wins          INTEGER,
  draws         INTEGER,
  losses        INTEGER,
  finished_at   TEXT,
  PRIMARY KEY (tournament_id, iteration)
);

-- Each option's part of an iteration: the value it was played around (theta), the sign of its
-- perturbation (flip), the gains c_k and a_k, and what each engine was given.
CREATE TABLE tune_steps (
  tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
  iteration     INTEGER NOT NULL,
  param         INTEGER NOT NULL,
  theta         REAL    NOT NULL,
  flip          INTEGER NOT NULL CHECK (flip IN (-1, 1)),
  c             REAL    NOT NULL,
  a             REAL    NOT NULL,
  plus_value    REAL    NOT NULL,
  minus_value   REAL    NOT NULL,
  PRIMARY KEY (tournament_id, iteration, param)
);

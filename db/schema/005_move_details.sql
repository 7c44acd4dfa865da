-- Knightly database, version 5: what an engine reported with each move beside its score,
-- depth and nodes (docs/schema.md), so a game read back from the database writes the same
-- PGN fields (fastchess's -pgnout nps=, hashfull=, tbhits=, latency=, pv=, match_line=) as it
-- did when it was played. NULL where the engine did not report it (and for every move stored
-- before version 5): such a field is left out of the PGN, never written as 0.
ALTER TABLE moves ADD COLUMN nps INTEGER;
ALTER TABLE moves ADD COLUMN hashfull INTEGER;
ALTER TABLE moves ADD COLUMN tbhits INTEGER;
ALTER TABLE moves ADD COLUMN latency_ms INTEGER;
ALTER TABLE moves ADD COLUMN pv TEXT;
ALTER TABLE moves ADD COLUMN lines TEXT;

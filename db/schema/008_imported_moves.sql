-- Knightly database, version 8: an imported game's moves in its own row (docs/schema.md).
-- A PGN file holds nothing per move but the move (an engine's figures stay in the stored PGN
-- text), so a row of `moves` per half-move cost an import most of its time and space for
-- three values. Imported games keep their moves here, UCI and SAN, space-separated, in
-- order; games Knightly plays keep theirs in `moves` and leave both NULL. Games imported
-- before version 8 keep their `moves` rows: readers take the rows when there are any.
ALTER TABLE games ADD COLUMN moves_uci TEXT;
ALTER TABLE games ADD COLUMN moves_san TEXT;

-- Knightly database, version 9: an imported game's PGN as its tags alone (docs/schema.md).
-- The movetext of a game whose moves are lists in its row (version 8) says nothing the lists
-- do not: its SAN, {book} after the book moves, the reason, the result. Such a game keeps the
-- tag section of its PGN here, blank line included, and an empty `pgn`; readers write the
-- movetext from the lists after it, which gives the same text as before. Every other game
-- (played, or imported before version 9) keeps its whole text in `pgn` and NULL here.
ALTER TABLE games ADD COLUMN pgn_tags TEXT;

-- Knightly database, version 11: each side's move latency summed in its game's row.
-- The end of every `knightly run` and `knightly query health` show each engine's latency
-- (moves.latency_ms: go to bestmove less the time the engine reported); they read it from
-- every move of the tournament, and each of four processes sharing one tournament read all
-- of them at its end (a third of their CPU over 2,000 short games). A game's row now holds,
-- per side, the count of its moves with a latency, their sum and their largest, written when
-- the game is stored; 0, 0, 0 when no move has one. Games stored before version 11 get them
-- here from their moves (White moves at even (ply - 1 + black-first), as the readers count).
ALTER TABLE games ADD COLUMN white_latency_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_latency_sum_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_latency_max_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_latency_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_latency_sum_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_latency_max_ms INTEGER NOT NULL DEFAULT 0;
UPDATE games SET
  (white_latency_moves, white_latency_sum_ms, white_latency_max_ms) =
    (SELECT count(*), coalesce(sum(m.latency_ms), 0), coalesce(max(m.latency_ms), 0)
     FROM moves m WHERE m.game_id = games.id AND m.latency_ms IS NOT NULL AND
       (m.ply - 1 + (CASE WHEN games.opening_fen LIKE '% b %' AND
                              games.opening_fen NOT LIKE '% w %' THEN 1 ELSE 0 END)) % 2 = 0),
  (black_latency_moves, black_latency_sum_ms, black_latency_max_ms) =
    (SELECT count(*), coalesce(sum(m.latency_ms), 0), coalesce(max(m.latency_ms), 0)
     FROM moves m WHERE m.game_id = games.id AND m.latency_ms IS NOT NULL AND
       (m.ply - 1 + (CASE WHEN games.opening_fen LIKE '% b %' AND
                              games.opening_fen NOT LIKE '% w %' THEN 1 ELSE 0 END)) % 2 = 1)
WHERE EXISTS (SELECT 1 FROM moves m WHERE m.game_id = games.id AND m.latency_ms IS NOT NULL);

-- Knightly database, version 10: a tournament's games in the order they were stored.
-- The newest games of one tournament (a page of `knightly query games`, the live page, and
-- each worker's look at what the others stored after every game it stores) were found through
-- games_schedule and sorted by id: every game of the tournament read for each page, so a run's
-- cost per game grew with its games (2,000 depth-1 games: a third of the process's reads).
-- Ids grow as games are stored, so this index only ever appends within a tournament.
CREATE INDEX games_tournament ON games (tournament_id, id);

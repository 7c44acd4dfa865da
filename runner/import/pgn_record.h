#pragma once
// One PGN game read by the chess core's reader as the record `knightly import` stores: its
// ending from the reason cutechess and fastchess write in the last comment, else the
// Termination tag, else the final position; its start time, duration and players; and the keys
// that recognise a game already in the database (pgn_import.h).
#include <string>

#include "db/records/game_record.h"
#include "db/store/game_writes.h"
#include "engine/chess/pgn.h"
#include "runner/import/pgn_import.h"

namespace knightly::runner::pgn_import {

// A finished game (`result` not None) to import (engine ids left 0): its record, its pgn left
// empty (its stored PGN is `pgn_tags`, set here, followed by the plain movetext of its moves,
// which is to_pgn's text for it), its moves as lists when they fit the row (record.moves then
// empty), its dedup key and content hash. The moves' SAN may be moved out of `g`.
db::ImportItem item_of(chess::PgnGame& g, Result result);
// What identifies an imported game (its content hash input): tags, start time, moves.
std::string dedup_key(const chess::PgnGame& g, const GameRecord& record);
// What identifies one game wherever it came from: hashed the same way for a game Knightly
// stored and for a game read back from its export (start time to the second).
// The moves are `lists` when given, else record.moves.
std::string game_fingerprint(GameRecord record, const db::MoveLists* lists = nullptr);

}  // namespace knightly::runner::pgn_import

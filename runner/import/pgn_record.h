#pragma once
// One PGN game read by the chess core's reader as the record `knightly import` stores: its
// ending from the reason cutechess and fastchess write in the last comment, else the
// Termination tag, else the final position; its start time, duration and players; and the keys
// that recognise a game already in the database (pgn_import.h).
#include <string>

#include "db/records/game_record.h"
#include "engine/chess/pgn.h"
#include "runner/import/pgn_import.h"

namespace knightly::runner::pgn_import {

// The record of a finished game (`result` not None), its pgn left empty: its stored PGN is
// `pgn_tags` (the tag section, set here) followed by plain_movetext(record), which is
// to_pgn's text for it (db::ImportItem::pgn_tags). The moves' SAN is moved out of `g`.
GameRecord record_of(chess::PgnGame& g, Result result, std::string& pgn_tags);
// What identifies an imported game (its content hash input): tags, start time, moves.
std::string dedup_key(const chess::PgnGame& g, const GameRecord& record);
// What identifies one game wherever it came from: hashed the same way for a game Knightly
// stored and for a game read back from its export (start time to the second).
std::string game_fingerprint(GameRecord record);

}  // namespace knightly::runner::pgn_import

#pragma once
// A GameRecord as PGN text, the way cutechess writes it: Seven Tag Roster first, then SetUp/FEN
// for a non-initial start, PlyCount, TimeControl, Termination, GameStartTime, GameDuration,
// Opening; move comments "{+0.35/12 0.52s}" and "{book}", and the reason appended to the last
// move's comment ("{-M1/3 0.01s, Black mates}").
#include <span>
#include <string>
#include <string_view>

#include "db/records/game_record.h"

namespace knightly::runner {

// The tags a record does not carry.
struct PgnHeader {
  std::string event = "?";
  std::string site = "?";
  std::string round = "?";
  std::string white_time_control = "-";  // PGN form ("40/60", "60+0.6", "0.1/move", "-")
  std::string black_time_control = "-";  // one TimeControl tag when both are equal
  // The PGN Variant tag ("fischerandom" for Chess960, as cutechess writes it); "" or
  // "standard": none. A variant game always has SetUp/FEN.
  std::string variant;
};

// What the PGN file holds beyond the default (cutechess's form): fastchess's -pgnout keys
// (notation, the extra comment fields) and the minimal form of both tools (`min`).
enum class PgnNotation { San, Lan, Uci };
const char* notation_name(PgnNotation n);  // "san", "lan", "uci"

struct PgnOptions {
  PgnNotation notation = PgnNotation::San;
  // Appended to a move's comment as fastchess writes them: "n=", "sd=", "nps=", "hashfull=",
  // "tbhits=", "tl=" (clock left after the move), "latency=" (measured minus reported time),
  // "pv=\"...\"". A field the engine did not report (the record holds no figure for it) is
  // left out, never written as 0; so is "sd=" for a seldepth of 0 (none reported).
  bool nodes = false;
  bool seldepth = false;
  bool nps = false;
  bool hashfull = false;
  bool tbhits = false;
  bool timeleft = false;
  bool latency = false;
  bool pv = false;   // the principal variation, "pv=..." (fastchess's pv=true)
  bool min = false;  // the Seven Tag Roster (and SetUp/FEN) and the moves, no comments
  // fastchess's match_line=REGEX: the engine's `info string` line that matched, kept with
  // the move (MoveRecord::lines), written as `line="..."`. "" = none. The match picks the
  // lines as it plays (GameSetup::match_line); the writer writes what the record holds.
  std::string match_line;
  bool operator==(const PgnOptions&) const = default;
};

// The PGN Termination tag value (PGN standard 9.8.1): "normal", "adjudication",
// "time forfeit", "rules infraction", "abandoned", "unterminated". to_pgn writes no tag for a
// finished game whose termination is None (its ending is not known).
const char* pgn_termination(Termination t);

// The comment cutechess writes after a move ("book", "+0.35/12 0.52s", "" for none), followed
// by the fields `options` asks for ("+0.35/12 0.52s, n=123456, sd=15").
std::string move_comment(const MoveRecord& move, const PgnOptions& options = {});

// Long algebraic notation as fastchess writes it: the piece letter, both squares, 'x' for a
// capture, "=Q" for a promotion, the check mark of the SAN ("Ng1f3", "e4xd5", "O-O", "e7e8=Q+").
std::string lan_text(const MoveRecord& move);

// "hh:mm:ss" as cutechess's GameDuration tag.
std::string format_duration(std::int64_t ms);

// The whole game as PGN text (ends with a blank line). Moves are replayed from the start FEN;
// a move that does not replay (a corrupt record) ends the movetext there. A move's SAN is the
// record's own when it has one (the runner writes it as the move is played), else computed.
std::string to_pgn(const GameRecord& record, const PgnHeader& header,
                   const PgnOptions& options = {});

// The tag section to_pgn writes (default options), blank line included. For a game whose moves
// carry nothing but the move and its book flag (an imported game), it and plain_movetext(record)
// (db/records/game_record.h) are to_pgn's whole text, one after the other. `plies`: the game's
// (record.moves.size() unless its moves are kept elsewhere, as an importer's lists). The tags
// named in `unknown` are left out (an imported game's source did not say them).
std::string pgn_tags_text(const GameRecord& record, const PgnHeader& header, std::size_t plies,
                          std::span<const std::string_view> unknown = {});

}  // namespace knightly::runner

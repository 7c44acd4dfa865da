#pragma once
// UCI text in and out, with no I/O and no threads: parse `position` and `go` arguments,
// format `info` and `bestmove`. The engine loop (uci_engine.h) and the tests use these.
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chess/position.h"
#include "engine/search/search.h"

namespace knightly::uci {

std::vector<std::string_view> split_words(std::string_view s);

// Arguments after "position": "startpos [moves ...]" or "fen <6 fields> [moves ...]".
// Any error (bad FEN, illegal or malformed move) leaves nothing applied.
std::expected<chess::Position, std::string> parse_position(std::string_view args);

struct GoCommand {
  search::Limits limits;
  int perft = 0;                      // `go perft N`
  std::vector<std::string> warnings;  // bad values, reported and skipped
};
// Arguments after "go". Never fails: bad tokens become warnings.
GoCommand parse_go(std::string_view args);

std::string format_score(int score);  // "cp 35", "mate 3", "mate -2"
std::string format_info(const search::SearchInfo& info);
std::string format_bestmove(const search::SearchResult& result);

}  // namespace knightly::uci

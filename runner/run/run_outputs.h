#pragma once
// What a run writes besides the database for the options of cutechess-cli and fastchess: the
// PGN text with -pgnout's options, the -epdout line, the runner's -log file, and the players'
// options (timeouts, logs), all from the Config.
#include <optional>
#include <string>

#include "db/records/game_record.h"
#include "runner/config/config.h"
#include "runner/match/game_pgn.h"
#include "runner/players/player_options.h"

namespace knightly::runner {

// The PGN tags a record does not hold, for a game of this tournament (a game read back from
// the database too): Event, Site, Round and the two sides' time controls.
PgnHeader pgn_header_for(const GameRecord& record, const Config& config);

// The game as the PGN file gets it: the stored text when the options are the default ones,
// else the record written again with them.
std::string output_pgn(const GameRecord& record, const PgnHeader& header,
                       const OutputConfig& output);

// The -epdout line ("FEN\n"), "" without -epdout or when the moves do not replay.
std::string output_epd(const GameRecord& record, const OutputConfig& output);

// Timeouts and logs of the players from the tournament's settings; `log_dir` is --log-dir.
PlayerOptions player_options_for(const Config& config, const std::string& log_dir);

// -log file=F: the runner's own lines ("Started game ...", warnings, errors), each stamped
// with the UTC time and appended with one write, so players logging to the same file
// (engine=true) do not tear them.
class RunLog {
 public:
  RunLog() = default;
  ~RunLog();
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;
  // An error naming the file when it cannot be opened; `append` false empties it first.
  std::optional<std::string> open(const std::string& path, bool append);
  void line(const std::string& text);

 private:
  int fd_ = -1;
};

}  // namespace knightly::runner

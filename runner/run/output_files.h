#pragma once
// The files a run derives from the database through one writer: the PGN file (--pgn, -pgnout)
// and the EPD file (-epdout), each a GameFile (game_file.h) with its own format and the same
// life: claimed for this tournament, brought up to date from the database when the run
// starts, given each game this process stores, and rebuilt at the end if it needs to be.
#include <cstdint>
#include <expected>
#include <functional>
#include <string>
#include <vector>

#include "db/store/store.h"
#include "runner/config/config.h"
#include "runner/run/game_file.h"

namespace knightly::runner {

class OutputFiles {
 public:
  // The files `config` names (none without --pgn, -pgnout or -epdout); `config` outlives this.
  explicit OutputFiles(const Config& config);

  // One writer per output file: this tournament's workers share them, another is refused.
  std::expected<void, std::string> claim(const db::Store& store);

  // For tournament `id` once it is found: a new one's (`created`) files start anew (or after
  // what they hold, with append); then each is brought up to date from the database, so nothing
  // a killed run left unwritten is lost, and nothing is there twice.
  std::expected<void, std::string> open(const db::Store& store, std::int64_t id, bool created);

  // A game this process stored (`held_here`: GameFile::add's). The errors, one per file.
  std::vector<std::string> add(const db::Store& store, std::int64_t id, int schedule_index,
                               const GameRecord& record, const std::function<bool(int)>& held_here);

  // At the end of a run, whatever happened: the files equal the database. The errors.
  std::vector<std::string> finish(const db::Store& store, std::int64_t id);

 private:
  const Config& config_;
  std::vector<GameFile> files_;
  std::vector<OutputClaim> claims_;
};

}  // namespace knightly::runner

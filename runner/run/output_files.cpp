#include "runner/run/output_files.h"

#include <filesystem>

#include "runner/run/run_outputs.h"

namespace knightly::runner {

OutputFiles::OutputFiles(const Config& config) : config_(config) {
  files_.reserve(2);
  const OutputConfig& out = config.output;
  const bool sync = out.sync == SyncMode::Full;
  if (!out.pgn.empty()) {
    // The stored text, or the game written again with -pgnout's options.
    const bool rewrite = !(out.pgn_options == PgnOptions{});
    files_.emplace_back(
        out.pgn,
        [&config](const GameRecord& r) {
          return output_pgn(r, pgn_header_for(r, config), config.output) + "\n";
        },
        rewrite, sync, out.pgn_append);
  }
  if (!out.epd.empty())
    files_.emplace_back(
        out.epd, [&config](const GameRecord& r) { return output_epd(r, config.output); }, true,
        sync, out.epd_append);
}

std::expected<void, std::string> OutputFiles::claim(const db::Store& store) {
  // The tournament is its database (a file by its real path) and its name.
  std::error_code ec;
  const std::string db_identity =
      store.is_postgres() ? store.path()
                          : std::filesystem::weakly_canonical(store.path(), ec).string();
  for (const GameFile& file : files_) {
    const bool pgn = file.path() == config_.output.pgn;
    auto claim = OutputClaim::take(file.path(), db_identity + "\n" + config_.tournament.name,
                                   pgn ? "--pgn, -pgnout, [output] pgn" : "-epdout, [output] epd");
    if (!claim) return std::unexpected(claim.error());
    claims_.push_back(std::move(*claim));
  }
  return {};
}

std::expected<void, std::string> OutputFiles::open(const db::Store& store, std::int64_t id,
                                                   bool created) {
  for (GameFile& file : files_) {
    if (created)
      if (auto r = file.start_new(); !r) return r;
    if (auto r = file.rebuild(store, id); !r) return r;
  }
  return {};
}

std::vector<std::string> OutputFiles::add(const db::Store& store, std::int64_t id,
                                          int schedule_index, const GameRecord& record,
                                          const std::function<bool(int)>& held_here) {
  std::vector<std::string> errors;
  for (GameFile& file : files_)
    if (auto r = file.add(store, id, schedule_index, record, held_here); !r)
      errors.push_back(std::move(r.error()));
  return errors;
}

std::vector<std::string> OutputFiles::finish(const db::Store& store, std::int64_t id) {
  std::vector<std::string> errors;
  for (GameFile& file : files_)
    if (auto r = file.finish(store, id); !r) errors.push_back(std::move(r.error()));
  return errors;
}

}  // namespace knightly::runner

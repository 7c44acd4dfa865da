#pragma once
// Reads the store for `knightly report` and `knightly serve` and builds the page's data
// document and the API's data sets with runner/report's builders. The tables `knightly query`
// prints are embedded as that command's own JSON (runner/query/query.h).
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "db/store/store.h"

namespace knightly::runner {

struct ReportOptions {
  db::GameFilter filter;  // which games (by tournament name)
  std::string title = "Knightly report";
  // Games listed, newest first: with their moves embedded (the report file) or as the first
  // page of the list (serve fetches more and each game on demand).
  int games = 200;
  bool details = true;  // embed each listed game's moves, positions and PGN
  // Move statistics cover the newest this many games (0 = all). Every move of every game is
  // too many rows to read in a few seconds (8 million for 100,000 games); the newest 2,000
  // games show the same curves, and the page says which games they are.
  std::int64_t move_stats_games = 2000;
};

// The data document (docs/api.md, "/api/report"): {"version", "generation", "title",
// "generated_at", "filter", "games_total", "standings", "ratings", "h2h", "terminations", "match",
// "moves", "games", "details"}. `now` is the ISO 8601 UTC time it is built at.
std::string report_document(const db::Store& store, const ReportOptions& options,
                            const std::string& now);

// `knightly query WHAT --format json FLAGS...` (flags as on the command line, without --db and
// --format): the JSON it prints, or the message it fails with.
std::expected<std::string, std::string> query_json(const db::Store& store, const std::string& what,
                                                   std::vector<std::string> flags);
// The same over the games `filter` selects (by tournament), a failure as {"error": message}.
std::string query_json(const db::Store& store, const std::string& what,
                       const db::GameFilter& filter);

// One page of the game list (docs/api.md, "/api/games").
std::string games_page_json(const db::Store& store, const db::GameFilter& filter,
                            std::int64_t before_id, int limit);

// One game for the replay (docs/api.md, "/api/game/ID"); nullopt when there is no such game.
std::optional<std::string> game_detail_json(const db::Store& store, std::int64_t id);

// Progress, ETA and the games being played (docs/api.md, "/api/summary").
std::string summary_document(const db::Store& store, const db::GameFilter& filter,
                             const std::string& now);

// Games in the schedule of a stored tournament (its TOML config, or `knightly sprt`'s
// --max-games); nullopt when it cannot tell.
std::optional<std::int64_t> scheduled_games(const db::Tournament& tournament);

}  // namespace knightly::runner

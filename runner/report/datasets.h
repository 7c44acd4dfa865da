#pragma once
// The page's data sets as JSON, from the store's read types: the game list (a page of it),
// move statistics per engine, and the live summary (progress, ETA, games being played).
// The tables `knightly query` prints (standings, ratings, h2h, terminations) are not here:
// the page embeds that command's own JSON (runner/query/query.h), so they are equal by
// construction. Pure: values in, text out.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "db/records/report_types.h"
#include "db/records/store_types.h"

namespace knightly::runner::report {

// {"total": N, "rows": [{"id", "tournament", "round", "pair", "game", "white", "black",
//  "result", "termination", "reason", "plies", "started_at", "duration_ms"}, ...],
//  "next_before": id of the last row when more may follow, else null}
// Rounds, pairs and games are 1-based, as `knightly query games` prints them.
std::string game_list_json(std::span<const db::GameSummary> rows, std::int64_t total, bool more);

// {"games": games the figures cover, "of": games selected, "engines": [{"engine": name,
//  "rows": [[move, moves, depth, nodes, nps, time_ms, clock_left_ms], ...]}, ...]}
// Per engine and move number the averages over its non-book moves; nps over the moves with a
// think time (null when none had one); clock_left_ms null when no move had a clock.
std::string move_stats_json(std::span<const db::MoveStats> rows, std::int64_t games_covered,
                            std::int64_t games_selected);

// Games finished per second, from the newest stored games of one tournament (their end is
// start + duration): (n - 1) games over the span of their ends. nullopt with fewer than two
// games or no time between them.
std::optional<double> finish_rate(std::span<const db::GameSummary> newest);

struct TournamentProgress {
  std::int64_t id = 0;
  std::string name;
  std::string kind;
  std::string status;
  std::string started_at;
  std::string finished_at;
  std::int64_t games = 0;
  std::optional<std::int64_t> total;  // games the schedule holds, when known
  std::optional<double> rate;         // games per second, recently
};

// A game being played now, as the store's claims tell it.
struct ActiveGame {
  std::string tournament;
  int round = 0;      // 1-based
  int pair = 0;       // 1-based
  int game = 0;       // 1-based game of the pair being played
  std::string white;  // "" when the stored config does not say
  std::string black;
  std::string worker;  // host:pid
  std::string fen;     // current position, "" when the worker does not report it
  int ply = 0;
  std::int64_t heartbeat_ago_ms = 0;  // since the worker last renewed its lease
};

struct Summary {
  std::string generation;  // changes whenever a game is stored
  std::string now;         // ISO 8601 UTC
  std::int64_t games = 0;  // games selected
  std::vector<TournamentProgress> tournaments;
  std::vector<ActiveGame> active;
  std::string active_note;  // why `active` may be empty (e.g. the store keeps no claims)
};

// {"generation", "now", "games", "tournaments": [{"id", "name", "kind", "status",
//  "started_at", "finished_at", "games", "total", "games_per_hour", "eta_s"}, ...],
//  "active": [{"tournament", "round", "pair", "game", "white", "black", "worker", "fen", "ply",
//  "heartbeat_ago_ms"}, ...], "active_note"}
// eta_s: remaining games / rate for a running tournament with a known total, else null.
std::string summary_json(const Summary& summary);

}  // namespace knightly::runner::report

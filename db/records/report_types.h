#pragma once
// Plain structs of the report queries (knightly report, knightly serve): store_report.cpp.
#include <cstdint>
#include <string>

#include "db/records/game_record.h"

namespace knightly::db {

// One engine's non-book moves at one move number (1-based, counted from the game's start
// position), summed over the selected games. Averages are sums / counts; nps is
// timed_nodes / timed_ms over the moves that report a think time.
struct MoveStats {
  std::string engine;
  int move_number = 0;
  std::int64_t moves = 0;
  // Depth over the moves without a mate score only: an engine that has seen a mate reports
  // its maximum depth (Stockfish: 245), which says nothing about how deep it searched.
  std::int64_t depth_sum = 0;
  std::int64_t depth_moves = 0;
  std::int64_t nodes_sum = 0;
  std::int64_t time_ms_sum = 0;
  std::int64_t timed_moves = 0;  // moves with time_ms > 0
  std::int64_t timed_nodes = 0;  // their nodes
  std::int64_t timed_ms = 0;     // their time
  std::int64_t clock_moves = 0;  // moves with a clock reading
  std::int64_t clock_left_sum = 0;
};

// One engine's faults and latency over the selected games (the end of a run, `knightly query
// health`, the report): the games it lost by each fault, as fastchess counts them at the end
// (its "Timeouts" and "Crashed", a crash being a disconnect or a stall), and the latency of its
// moves (moves.latency_ms: go to bestmove less the engine's reported time) where it was known.
struct EngineHealth {
  std::string engine;
  std::int64_t games = 0;
  std::int64_t time_losses = 0;
  std::int64_t disconnects = 0;
  std::int64_t stalls = 0;
  std::int64_t illegal_moves = 0;
  std::int64_t latency_moves = 0;  // moves with a latency
  std::int64_t latency_sum_ms = 0;
  std::int64_t latency_max_ms = 0;
  // The one mean every view prints; 0 without a move with a latency.
  double latency_mean_ms() const {
    return latency_moves > 0 ? double(latency_sum_ms) / double(latency_moves) : 0.0;
  }
};

// One stored game's result, in the order games were stored.
struct StoredResult {
  std::int64_t id = 0;
  std::int64_t tournament_id = 0;
  int round = 0;
  int pair = 0;
  int game_in_pair = 0;
  std::string white;
  std::string black;
  Result result = Result::None;
};

// A pair a worker holds under a live lease: its games are being played.
struct LeasedPair {
  std::int64_t tournament_id = 0;
  int round = 0;
  int pair = 0;
  int games = 2;
  int schedule_index = 0;  // of the pair's first game
  int stored_mask = 0;     // bit i set: game_in_pair i is stored
  std::string host;        // the worker's
  std::int64_t pid = 0;
  std::int64_t lease_left_ms = 0;  // by the database's clock
  std::int64_t seen_ago_ms = 0;    // since the worker's last heartbeat
  // The position the worker last recorded (Store::set_live_position): of game_in_pair
  // `live_game` (-1: none yet), `live_ply` plies from its start.
  int live_game = -1;
  int live_ply = 0;
  std::string live_fen;
};

}  // namespace knightly::db

#pragma once
// Store's private state, shared by store.cpp (open, writes) and store_queries.cpp (reads).
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "db/store/database.h"
#include "db/store/statement.h"
#include "db/store/store.h"

namespace knightly::db {

struct Store::Impl {
  explicit Impl(Database database) : db(std::move(database)) {}

  Database db;
  int version = 0;
  mutable std::recursive_mutex mutex;
  // Prepared once and reused: the per-game hot path.
  std::optional<Statement> insert_game;
  std::optional<Statement> insert_move;        // one row
  std::optional<Statement> insert_move_block;  // kMoveBlock rows in one statement
  static constexpr int kMoveBlock = 16;
  std::optional<Statement> select_moves;

  // engine id -> name, refreshed when an unknown id shows up.
  mutable std::unordered_map<std::int64_t, std::string> engine_names;
  const std::string& engine_name(std::int64_t id) const;

  Tournament read_tournament(const Statement& st) const;  // columns of kTournamentColumns
};

// The column list read_tournament() expects, in order.
inline constexpr const char* kTournamentColumns =
    "id, name, kind, config_text, config_hash, seed, status, started_at, finished_at";

}  // namespace knightly::db

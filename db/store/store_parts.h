#pragma once
// A Store's state: the core its parts share and the parts (store.h). Private to db/store.
#include <memory>

#include "db/store/sqlite_checkpointer.h"
#include "db/store/store.h"
#include "db/store/store_core.h"

namespace knightly::db {

struct Store::Impl {
  Impl(Database database, StoreOptions options) : core(std::move(database), options) {}

  StoreCore core;
  Catalog catalog{core};
  GameWrites games{core};
  Work work{core};
  TestQueue test_queue{core};
  Tunes tunes{core};
  Queries queries{core};
  // A writer's SQLite file: its checkpoints, off the committing threads. Declared last, so
  // destroyed first: stopped before the connection closes.
  std::unique_ptr<SqliteCheckpointer> checkpointer;
};

}  // namespace knightly::db

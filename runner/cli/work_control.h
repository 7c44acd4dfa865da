#pragma once
// `knightly stop --all`: every `knightly work` of the database finishes its games in progress
// and exits (the tests stay open for workers started later). Kept beside cmd_work.cpp, which
// reads the same stop epoch.
#include "db/store/store.h"

namespace knightly::runner {

// Raises the queue's stop epoch and says so; the exit code.
int stop_all_workers(db::Store& store);

}  // namespace knightly::runner

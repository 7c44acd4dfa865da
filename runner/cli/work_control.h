#pragma once
// What `knightly work` shares with the other commands (cmd_work.cpp): its help, and `knightly
// stop --all`, by which every `knightly work` of the database finishes its games in progress and
// exits (the tests stay open for workers started later), read from the same stop epoch.
#include <string>

#include "db/store/store.h"

namespace knightly::runner {

// Raises the queue's stop epoch and says so; the exit code.
int stop_all_workers(db::Store& store);

// The options part of `knightly help work`, from the table of options its parser reads.
std::string work_options();

}  // namespace knightly::runner

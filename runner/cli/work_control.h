#pragma once
// What `knightly work` shares with the other commands (cmd_work.cpp): a queued test's config,
// its help, and `knightly stop --all`, by which every `knightly work` of the database finishes
// its games in progress and exits (the tests stay open for workers started later), read from
// the same stop epoch.
#include <expected>
#include <string>

#include "db/store/store.h"
#include "runner/config/config.h"

namespace knightly::runner {

// The config a worker plays a queued test with: its TOML (paths from its file's directory) or
// its `knightly sprt` words. The database and the concurrency are the worker's to set.
std::expected<Config, std::string> queued_config(const db::QueuedTest& test);

// Raises the queue's stop epoch and says so; the exit code.
int stop_all_workers(db::Store& store);

// The options part of `knightly help work`, from the table of options its parser reads.
std::string work_options();

}  // namespace knightly::runner

#pragma once
// This process as a worker of a shared tournament: host name, pid and start time (with
// milliseconds, so two processes that reuse a pid are still told apart).
#include <chrono>
#include <string>

#include "db/records/store_types.h"

namespace knightly::runner {

db::WorkerIdentity this_worker();

// Whether `other` is provably gone: a worker on this host (`me.host`) whose process no longer
// exists, or whose pid is now this very process (started at another time). A worker elsewhere,
// or one whose pid is alive, is not: its lease runs out by itself.
bool worker_is_gone(const db::WorkerIdentity& other, const db::WorkerIdentity& me);

}  // namespace knightly::runner

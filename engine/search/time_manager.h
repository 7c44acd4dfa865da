#pragma once
// How long one `go` may think. Pure: the clock values come in, two budgets come out.
//   soft: do not start another iteration after this much of it is gone;
//   hard: abort the search at this point, whatever it is doing.
// A clock always keeps overhead_ms (the Move Overhead option, OverheadMs by default) in
// reserve for the GUI/runner round trip, so the engine never loses on time.
#include <cstdint>

#include "engine/chess/types.h"
#include "engine/search/search.h"

namespace knightly::search {

struct TimeBudget {
  std::int64_t soft_ms = 0;  // 0 = no limit
  std::int64_t hard_ms = 0;  // 0 = no limit
  bool limited() const { return hard_ms > 0; }
};

TimeBudget plan_time(const Limits& limits, chess::Color side,
                     std::int64_t overhead_ms = OverheadMs);

}  // namespace knightly::search

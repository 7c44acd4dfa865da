#include "engine/search/time_manager.h"

#include <algorithm>

namespace knightly::search {

TimeBudget plan_time(const Limits& limits, chess::Color side, std::int64_t overhead_ms) {
  TimeBudget b;
  if (limits.infinite) return b;
  if (limits.movetime_ms > 0) {
    // Use the time given, less a little so `bestmove` arrives inside it.
    std::int64_t t = limits.movetime_ms;
    b.hard_ms = std::max<std::int64_t>(1, t - std::min<std::int64_t>(5, t / 10));
    b.soft_ms = b.hard_ms;
  }
  std::int64_t left = limits.time_ms[side];
  if (left > 0 || limits.has_clock()) {
    std::int64_t inc = std::max<std::int64_t>(0, limits.inc_ms[side]);
    std::int64_t avail = std::max<std::int64_t>(1, left - std::max<std::int64_t>(0, overhead_ms));
    std::int64_t soft, hard;
    if (limits.movestogo == 1) {
      soft = avail / 2;
      hard = avail * 8 / 10;
    } else {
      int mtg = limits.movestogo > 0 ? std::min(limits.movestogo, 40) : 30;
      soft = avail / mtg + inc * 3 / 4;
      hard = std::min<std::int64_t>(avail * 4 / 10, soft * 4);
      soft = std::min(soft, hard);
    }
    soft = std::max<std::int64_t>(1, soft);
    hard = std::max<std::int64_t>(1, hard);
    b.soft_ms = b.soft_ms ? std::min(b.soft_ms, soft) : soft;
    b.hard_ms = b.hard_ms ? std::min(b.hard_ms, hard) : hard;
  }
  return b;
}

}  // namespace knightly::search

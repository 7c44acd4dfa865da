#pragma once
// The schedule's random numbers: SplitMix64, so the same seed gives the same schedule on
// every platform and compiler (std distributions are not portable).
#include <cstdint>

namespace knightly::runner {

class ScheduleRng {
 public:
  explicit ScheduleRng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) by multiply-shift (bias below 2^-32 for the sizes used here).
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }

 private:
  std::uint64_t state_;
};

// Mixes two values into an independent seed (for per-pair random plies).
inline std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b) {
  return ScheduleRng(a ^ (b * 0xd1b54a32d192ed03ULL + 0x8cb92ba72f3d8dd7ULL)).next();
}

}  // namespace knightly::runner

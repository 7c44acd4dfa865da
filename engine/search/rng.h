#pragma once
// A small seeded generator (SplitMix64): the same seed gives the same sequence on every
// platform, which std::uniform_int_distribution does not promise.
#include <cstdint>

namespace knightly::search {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1) : state_(seed) {}
  void seed(std::uint64_t s) { state_ = s; }
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (n > 0), by rejection so every value is equally likely.
  std::uint64_t below(std::uint64_t n) {
    std::uint64_t limit = ~std::uint64_t(0) - (~std::uint64_t(0) % n);
    std::uint64_t x;
    do x = next();
    while (x >= limit);
    return x % n;
  }
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)

 private:
  std::uint64_t state_;
};

}  // namespace knightly::search

#pragma once
// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
// the one seeded generator of the project. The same seed gives the same sequence on every
// platform and compiler, which std's distributions do not promise. The chess core holds it
// because the modules that draw link the core: the search, the evaluation's random term, the
// book pick, the runner's schedule, SPSA's perturbations, the ratings' simulations (stats)
// and the store's retry jitter (seeded from std::random_device where it must differ per
// process). The magic bitboards' table generator (bitboard.cpp) is the one other generator.
#include <cstdint>
#include <random>

namespace knightly::chess {

// SplitMix64's output function: a good 64-bit mix of x (for seeded hashing).
// mix64(s) is also the first value a SplitMix64 seeded with s gives.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed = 1) : state_(seed) {}
  constexpr void seed(std::uint64_t s) { state_ = s; }
  constexpr std::uint64_t next() {
    const std::uint64_t z = mix64(state_);
    state_ += 0x9e3779b97f4a7c15ULL;
    return z;
  }
  // Uniform in [0, n) (n > 0), by rejection: every value exactly equally likely.
  constexpr std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = ~std::uint64_t(0) - (~std::uint64_t(0) % n);
    std::uint64_t x;
    do x = next();
    while (x >= limit);
    return x % n;
  }
  // [0, n) by multiply-shift: one draw per value, a bias below n / 2^64. A different
  // sequence from below(): whoever stored results drawn one way keeps drawing that way.
  constexpr std::uint64_t below_multiply_shift(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  // Uniform in [0, 1), 53 bits.
  constexpr double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }

  // A UniformRandomBitGenerator, for the standard distributions (std::binomial_distribution in
  // the ratings' simulations), where the same seed need not draw the same on every platform.
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type(0); }
  constexpr result_type operator()() { return next(); }

 private:
  std::uint64_t state_;
};

// A seed that differs in every call, process and machine: two draws of a std::random_device,
// which is slow to make (about 20 us on a virtual machine: it asks the CPU what it offers,
// and the hypervisor answers), so made only where a seed is needed: a tournament without a
// configured seed, a thread's first retry of a locked database.
inline std::uint64_t random_seed() {
  std::random_device device;
  return device() | (std::uint64_t(device()) << 32);
}

}  // namespace knightly::chess

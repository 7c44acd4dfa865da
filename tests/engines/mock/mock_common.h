#pragma once
// What the mock engines (mock_engine: UCI, mock_xboard_engine: CECP 2) share: their command
// line of fault flags, whole-line unbuffered output, sleeping and stalling, and the seeded
// choice of a legal move. Each mock holds only its protocol's dialogue and faults.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chess/position.h"

namespace knightly::mock {

// The flags a mock accepts, each bound to a variable; parse() sets them from argv. An unknown
// flag, a missing value or a value that is not a number ends the process with exit code 2 and
// a message naming the program and the flag.
class FlagParser {
 public:
  explicit FlagParser(std::string program) : program_(std::move(program)) {}
  FlagParser& flag(std::string name, bool& target, bool value = true);
  FlagParser& value(std::string name, int& target);
  FlagParser& value(std::string name, std::uint64_t& target);
  FlagParser& value(std::string name, std::string& target);
  void parse(int argc, char** argv) const;

 private:
  struct Entry {
    std::string name;
    bool takes_value;
    std::function<bool(const std::string&)> set;  // false: not a valid value
  };
  std::string program_;
  std::vector<Entry> entries_;
};

// One line to stdout with its '\n' in one write(2), so the runner sees each reply at once;
// exit code 4 when stdout is gone.
void out(std::string_view text);
void sleep_ms(int ms);
// Never answers again (a hung engine); the runner has to kill it.
[[noreturn]] void stall_forever();

// Knuth's MMIX LCG: the mocks' seeded moves and random faults.
struct Lcg {
  std::uint64_t state;
  std::uint64_t next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  }
};

// The first legal move, or with `seed` != 0 one drawn from `rng`; none when there is none.
std::optional<chess::Move> pick_move(const chess::MoveList& legal, std::uint64_t seed, Lcg& rng);

}  // namespace knightly::mock

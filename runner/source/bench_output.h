#pragma once
// What an engine's `bench` says, and what its commit message says it should say. Pure: text in,
// figures out. The forms read are those fishtest and OpenBench read:
//   Stockfish:  "Total time (ms) : 2103" / "Nodes searched  : 2030412" / "Nodes/second : 965483"
//   OpenBench:  "2030412 nodes 965483 nps" (any line with "N nodes" and "N nps"; Ethereal,
//               Berserk, Weiss and most OpenBench engines)
// The last line that has a figure gives it (a bench prints per-position lines first).
#include <cstdint>
#include <optional>
#include <string_view>

namespace knightly::runner {

struct BenchFigures {
  std::uint64_t nodes = 0;
  std::optional<double> nps;      // as the engine printed it
  std::optional<double> time_ms;  // "Total time (ms)", when printed
};

// nullopt when no node count is in `output`.
std::optional<BenchFigures> parse_bench_output(std::string_view output);

// The node count a commit message states ("Bench: 2030412" on a line of its own, any case,
// the last such line), fishtest's and OpenBench's convention; nullopt when none.
std::optional<std::uint64_t> bench_in_commit_message(std::string_view message);

}  // namespace knightly::runner

#include "runner/source/bench_output.h"

#include <catch2/catch.hpp>

using namespace knightly::runner;

TEST_CASE("bench output: Stockfish's summary lines", "[source][bench]") {
  // Stockfish 16's bench ends so (on stderr), after a line per position.
  const char* text =
      "Position: 50/50 (8/8/8/8/8/8/8/8 w - - 0 1)\n"
      "info depth 13 seldepth 2 multipv 1 score cp 0 nodes 1234 nps 123400 time 10\n"
      "bestmove a1a2\n"
      "\n"
      "===========================\n"
      "Total time (ms) : 2103\n"
      "Nodes searched  : 2030412\n"
      "Nodes/second    : 965483\n";
  auto b = parse_bench_output(text);
  REQUIRE(b);
  CHECK(b->nodes == 2030412);
  REQUIRE(b->nps);
  CHECK(*b->nps == 965483.0);
  REQUIRE(b->time_ms);
  CHECK(*b->time_ms == 2103.0);
}

TEST_CASE("bench output: OpenBench's 'N nodes N nps' form", "[source][bench]") {
  // Ethereal, Berserk, Weiss...: one summary line; the last line with a figure gives it.
  auto b =
      parse_bench_output("Bench [# 1] 3456 nodes 12000 nps\nOVERALL: 4217394 nodes 1602814 nps\n");
  REQUIRE(b);
  CHECK(b->nodes == 4217394);
  REQUIRE(b->nps);
  CHECK(*b->nps == 1602814.0);
  CHECK_FALSE(b->time_ms);
  // "nodes N" and "nps N" word orders, and no speed at all.
  auto c = parse_bench_output("nodes 77\nnps 12\n");
  REQUIRE(c);
  CHECK(c->nodes == 77);
  CHECK(*c->nps == 12.0);
  auto d = parse_bench_output("42 nodes\n");
  REQUIRE(d);
  CHECK(d->nodes == 42);
  CHECK_FALSE(d->nps);
}

TEST_CASE("bench output: no node count is none", "[source][bench]") {
  CHECK_FALSE(parse_bench_output(""));
  CHECK_FALSE(parse_bench_output("usage: engine [uci]\n"));
  CHECK_FALSE(parse_bench_output("Nodes searched : lots\n"));
  CHECK_FALSE(parse_bench_output("Nodes/second : 100\n"));  // a speed is not a count
}

TEST_CASE("commit message: Bench: N, the last such line", "[source][bench]") {
  CHECK(bench_in_commit_message("Simplify razoring\n\nPassed STC...\n\nBench: 2030412\n") ==
        2030412u);
  CHECK(bench_in_commit_message("x\n\nbench: 12\nBENCH = 13\n") == 13u);
  CHECK(bench_in_commit_message("  Bench:   99  \r\n") == 99u);
  CHECK_FALSE(bench_in_commit_message("Update bench to the new value"));
  CHECK_FALSE(bench_in_commit_message("Bench: 12 nodes more than before"));
  CHECK_FALSE(bench_in_commit_message("Benchmark: 12"));
  CHECK_FALSE(bench_in_commit_message(""));
}

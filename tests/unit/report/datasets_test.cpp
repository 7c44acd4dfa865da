// The game list, move statistics, time parsing, finish rate and the live summary.
#include "runner/report/datasets.h"

#include <catch2/catch.hpp>

using namespace knightly;
using namespace knightly::runner::report;

namespace {

db::GameSummary row(std::int64_t id, std::string white, std::string started, std::int64_t ms) {
  db::GameSummary g;
  g.id = id;
  g.tournament = "t";
  g.game_id = {0, 1, 1, 3};
  g.white = std::move(white);
  g.black = "b";
  g.result = Result::WhiteWins;
  g.termination = Termination::Checkmate;
  g.reason = "White mates";
  g.plies = 40;
  g.started_at = std::move(started);
  g.duration_ms = ms;
  return g;
}

}  // namespace

TEST_CASE("game_list_json: rows 1-based as the query prints them, a cursor when more follow",
          "[report][datasets]") {
  std::vector<db::GameSummary> rows{row(9, "<x>", "2026-01-01T00:00:00Z", 1500),
                                    row(7, "a", "2026-01-01T00:01:00Z", 10)};
  const std::string j = game_list_json(rows, 120, true);
  CHECK(j.starts_with(
      R"({"total":120,"rows":[{"id":9,"tournament":"t","round":1,"pair":2,"game":2,"white":"\u003cx\u003e","black":"b","result":"1-0","termination":"checkmate","reason":"White mates","plies":40,"started_at":"2026-01-01T00:00:00Z","duration_ms":1500},)"));
  CHECK(j.ends_with(R"("next_before":7})"));
  CHECK(game_list_json(rows, 2, false).ends_with(R"("next_before":null})"));
  CHECK(game_list_json({}, 0, true) == R"({"total":0,"rows":[],"next_before":null})");
}

TEST_CASE("move_stats_json: averages per engine and move, nps over timed moves only",
          "[report][datasets]") {
  std::vector<db::MoveStats> rows;
  db::MoveStats a;
  a.engine = "zeta";
  a.move_number = 2;
  a.moves = 4;
  a.depth_sum = 30;
  a.depth_moves = 4;
  a.nodes_sum = 4000;
  a.time_ms_sum = 200;
  a.timed_moves = 2;
  a.timed_nodes = 3000;
  a.timed_ms = 150;
  a.clock_moves = 4;
  a.clock_left_sum = 40000;
  rows.push_back(a);
  db::MoveStats b = a;
  b.move_number = 1;
  b.timed_ms = 0;  // no move had a think time: nps unknown
  b.clock_moves = 0;
  b.depth_sum = 27;  // one of its 4 moves had a mate score: depth over the other 3
  b.depth_moves = 3;
  rows.push_back(b);
  db::MoveStats c;
  c.engine = "alpha";
  c.move_number = 1;
  c.moves = 1;  // with a mate score: no depth to show (an engine reports its maximum)
  rows.push_back(c);
  const std::string j = move_stats_json(rows, 10, 50);
  CHECK(
      j ==
      R"({"games":10,"of":50,"engines":[)"
      R"({"engine":"alpha","rows":[[1,1,null,0,null,0.0,null]]},)"
      R"({"engine":"zeta","rows":[[1,4,9.00,1000,null,50.0,null],[2,4,7.50,1000,20000,50.0,10000]]}]})");
}

TEST_CASE("parse_utc: the stored form, with or without a fraction", "[report][datasets]") {
  CHECK(parse_utc("1970-01-01T00:00:00Z") == 0.0);
  CHECK(parse_utc("2026-11-21T23:59:00Z") == 1795305540.0);
  CHECK(parse_utc("2026-11-21T23:59:00.250Z") == 1795305540.25);
  CHECK_FALSE(parse_utc("2026-11-21 23:59:00Z"));
  CHECK_FALSE(parse_utc("2026-02-30T00:00:00Z"));
  CHECK_FALSE(parse_utc("2026-11-21T23:59:00"));
  CHECK_FALSE(parse_utc("2026-11-21T23:59:00.xZ"));
  CHECK_FALSE(parse_utc(""));
}

TEST_CASE("finish_rate: games over the span of their ends", "[report][datasets]") {
  // Ends at 10 s, 20 s, 40 s: two more games in 30 s.
  std::vector<db::GameSummary> rows{row(1, "a", "2026-01-01T00:00:05Z", 5000),
                                    row(2, "a", "2026-01-01T00:00:10Z", 10000),
                                    row(3, "a", "2026-01-01T00:00:39.500Z", 500)};
  REQUIRE(finish_rate(rows));
  CHECK(*finish_rate(rows) == Approx(2.0 / 30.0));
  CHECK_FALSE(finish_rate(std::span(rows.data(), 1)));
  rows[1].started_at = "garbage";
  CHECK(*finish_rate(rows) == Approx(1.0 / 30.0));
}

TEST_CASE("summary_json: ETA for a running tournament with a total and a rate",
          "[report][datasets]") {
  Summary s;
  s.generation = "g5";
  s.now = "2026-01-01T00:00:00Z";
  s.games = 30;
  TournamentProgress running{1, "night", "run", "running", "x", "", 20, 100, 0.5};
  TournamentProgress done{2, "old", "sprt", "finished", "x", "y", 10, 10, 1.0};
  TournamentProgress unknown{3, "imp", "import", "running", "x", "", 5, std::nullopt, 0.1};
  s.tournaments = {running, done, unknown};
  s.active.push_back(
      {"night", 3, 4, 2, "<w>", "b", "host:12", "8/8/8/8/8/8/8/K6k w - - 0 1", 7, 1500});
  const std::string j = summary_json(s);
  CHECK(
      j.find(
          R"("name":"night","kind":"run","status":"running","started_at":"x","finished_at":"","games":20,"total":100,"games_per_hour":1800.0,"eta_s":160})") !=
      std::string::npos);
  CHECK(
      j.find(
          R"("name":"old","kind":"sprt","status":"finished","started_at":"x","finished_at":"y","games":10,"total":10,"games_per_hour":3600.0,"eta_s":null})") !=
      std::string::npos);
  CHECK(j.find(R"("games":5,"total":null,"games_per_hour":360.0,"eta_s":null})") !=
        std::string::npos);
  CHECK(
      j.find(
          R"("active":[{"tournament":"night","round":3,"pair":4,"game":2,"white":"\u003cw\u003e","black":"b","worker":"host:12","fen":"8/8/8/8/8/8/8/K6k w - - 0 1","ply":7,"heartbeat_ago_ms":1500}])") !=
      std::string::npos);
}

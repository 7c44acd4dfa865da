// The two-engine series: every point is fishtest's figure for the counts at that point.
#include "runner/report/match_series.h"

#include <catch2/catch.hpp>

#include "runner/report/json.h"
#include "runner/stats/elo.h"
#include "runner/stats/match_text.h"

using namespace knightly::runner;

namespace {

report::MatchPoint point(std::int64_t games, stats::Trinomial wdl, stats::Pentanomial p) {
  return {games, wdl, p};
}

}  // namespace

TEST_CASE("sample_stride: about `points` points whatever the game count", "[report][match]") {
  CHECK(report::sample_stride(0) == 1);
  CHECK(report::sample_stride(299) == 1);
  CHECK(report::sample_stride(300) == 1);
  CHECK(report::sample_stride(301) == 2);
  CHECK(report::sample_stride(100000) == 334);
  CHECK(report::sample_stride(1000, 10) == 100);
}

TEST_CASE("match_json: Elo band from the pentanomial, the LLR path between its bounds",
          "[report][match]") {
  std::vector<report::MatchPoint> pts;
  pts.push_back(point(1, {0, 0, 1}, {}));  // no pair yet: left out of the paths
  pts.push_back(point(2, {0, 1, 1}, {0, 0, 0, 0, 1, 0}));
  pts.push_back(point(6, {1, 2, 3}, {0, 0, 1, 0, 1, 1}));
  stats::SprtConfig sprt{0, 10, 0.05, 0.05, stats::EloModel::Normalized};
  const std::string j = report::match_json("New", "Base", pts, sprt);

  const auto e2 = stats::get_elo(pts[1].ptnml);
  const auto e6 = stats::get_elo(pts[2].ptnml);
  auto triple = [](std::int64_t g, const stats::EloEstimate& e) {
    return "[" + std::to_string(g) + "," + report::json_number(e.elo, 2) + "," +
           report::json_number(e.elo - e.elo95, 2) + "," + report::json_number(e.elo + e.elo95, 2) +
           "]";
  };
  CHECK(j.find("\"elo\":[" + triple(2, e2) + "," + triple(6, e6) + "]") != std::string::npos);
  CHECK(j.find(R"("first":"New","second":"Base","games":{"wins":3,"draws":2,"losses":1})") !=
        std::string::npos);
  CHECK(j.find(R"("ptnml":[0,0,1,0,1,1],"elo_from":"pairs")") != std::string::npos);

  const auto s2 = stats::sprt_status(sprt, pts[1].ptnml);
  const auto s6 = stats::sprt_status(sprt, pts[2].ptnml);
  CHECK(j.find("\"llr_path\":[[2," + report::json_number(s2.llr, 4) + "],[6," +
               report::json_number(s6.llr, 4) + "]]") != std::string::npos);
  CHECK(j.find("\"lower\":" + report::json_number(s6.bounds.lower, 4) +
               ",\"upper\":" + report::json_number(s6.bounds.upper, 4)) != std::string::npos);
  CHECK(j.find(R"("model":"normalized")") != std::string::npos);
  CHECK(j.find(R"("decision":"continue")") != std::string::npos);
}

TEST_CASE("match_json: without pairs Elo comes from W/D/L, no SPRT gives null", "[report][match]") {
  std::vector<report::MatchPoint> pts{point(1, {0, 0, 1}, {}), point(3, {1, 1, 1}, {})};
  const std::string j = report::match_json("a", "b", pts, std::nullopt);
  const auto e1 = stats::get_elo(pts[0].wdl);
  CHECK(j.find(R"("elo_from":"games")") != std::string::npos);
  // One win out of one game has no finite Elo: the point holds its 95% bound only.
  REQUIRE(e1.unbounded);
  CHECK(j.find("\"elo\":[[1,null," + report::json_number(e1.bound95, 2) + ",null]") !=
        std::string::npos);
  CHECK(j.find("[3,0.00,") != std::string::npos);  // an even score is 0 Elo
  CHECK(j.find(R"("elo_text":"0.0 +/- )") != std::string::npos);
  CHECK(j.find(R"("sprt":null)") != std::string::npos);
}

TEST_CASE("match_json: a 100% score is +inf with its bound, never fishtest's clamped 1199.8",
          "[report][match]") {
  // 150 wins in 75 pairs, as the issue's match: the last point is what query sprt prints.
  std::vector<report::MatchPoint> pts{point(150, {0, 0, 150}, {0, 0, 0, 0, 0, 75})};
  const std::string j = report::match_json("a", "b", pts, std::nullopt);
  const auto e = stats::get_elo(pts[0].ptnml);
  REQUIRE(e.unbounded);
  CHECK(j.find("\"elo_text\":" + report::json_string(stats::elo_text(e, 1))) != std::string::npos);
  CHECK(j.find("\"elo\":[[150,null," + report::json_number(e.bound95, 2) + ",null]]") !=
        std::string::npos);
  CHECK(j.find("1199.") == std::string::npos);
  // 0%: the upper bound only.
  pts = {point(10, {10, 0, 0}, {5, 0, 0, 0, 0, 0})};
  const std::string zero = report::match_json("a", "b", pts, std::nullopt);
  CHECK(zero.find("\"elo\":[[10,null,null," +
                  report::json_number(stats::get_elo(pts[0].ptnml).bound95, 2) + "]]") !=
        std::string::npos);
}

TEST_CASE("match_json: a decided SPRT shows the LLR at its decision, not of later games",
          "[report][match]") {
  std::vector<report::MatchPoint> pts;
  pts.push_back(point(2, {0, 0, 2}, {0, 0, 0, 0, 0, 1}));
  pts.push_back(point(4, {0, 0, 4}, {0, 0, 0, 0, 0, 2}));
  pts.push_back(point(6, {0, 1, 5}, {0, 0, 0, 0, 1, 2}));  // a pair stored after the decision
  stats::SprtConfig sprt{0, 10, 0.05, 0.05, stats::EloModel::Normalized};
  const report::DecidedPoint decided{4, stats::sprt_status(sprt, pts[1].ptnml)};
  const std::string j = report::match_json("a", "b", pts, sprt, decided);
  CHECK(j.find("\"llr\":" + report::json_number(decided.status.llr, 4) + ",") != std::string::npos);
  CHECK(j.find(R"("decided_after":4)") != std::string::npos);
  // The path ends at the decision.
  CHECK(j.find("\"llr_path\":[[2," +
               report::json_number(stats::sprt_status(sprt, pts[0].ptnml).llr, 4) + "],[4," +
               report::json_number(decided.status.llr, 4) + "]]") != std::string::npos);
  const std::string undecided = report::match_json("a", "b", pts, sprt);
  CHECK(undecided.find(R"("decided_after":null)") != std::string::npos);
  CHECK(undecided.find(
            "\"llr\":" + report::json_number(stats::sprt_status(sprt, pts[2].ptnml).llr, 4) +
            ",") != std::string::npos);
}

TEST_CASE("match_json: no games at all", "[report][match]") {
  const std::string j = report::match_json("a", "b", {}, std::nullopt);
  CHECK(j.find(R"("elo":[])") != std::string::npos);
  CHECK(j.find(R"("games":{"wins":0,"draws":0,"losses":0})") != std::string::npos);
}

// Every case of tests/data/sprt_vectors.json (computed with fishtest's own stat_util and
// LLRcalc): Elo, 95% interval, LOS and both LLR models, on pentanomial and W/D/L counts.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "runner/stats/elo.h"
#include "runner/stats/llr.h"
#include "runner/stats/match_text.h"
#include "runner/stats/sprt.h"
#include "tests/test_data.h"
#include "tests/unit/stats/mini_json.h"

using namespace knightly::runner::stats;
using knightly::test::Json;

namespace {

Json load_vectors() {
  const std::string path = knightly::test::data_path("sprt_vectors.json");
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  return knightly::test::JsonReader(text).parse();
}

std::vector<double> counts(const Json& arr) {
  std::vector<double> out;
  for (const auto& x : arr.items) out.push_back(x.number);
  return out;
}

// 1e-6 relative; the tiny absolute floor only matters where fishtest's value is itself
// rounding noise around an exact zero (an Elo of 7.7e-14 for symmetric counts, a LOS of 0).
bool close(double actual, double expected, double floor) {
  return std::abs(actual - expected) <= 1e-6 * std::abs(expected) + floor;
}

}  // namespace

TEST_CASE("sprt_vectors.json: 60 cases, pentanomial and W/D/L", "[stats][vectors]") {
  const Json doc = load_vectors();
  const auto& cases = doc["cases"].items;
  REQUIRE(cases.size() == 60);
  int checked = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Json& c = cases[i];
    const auto penta = counts(c["ptnml"]);
    const auto ldw = counts(c["ldw"]);
    REQUIRE(penta.size() == 5);
    REQUIRE(ldw.size() == 3);
    const double elo0 = c["elo0"].number, elo1 = c["elo1"].number;
    INFO("case " << i << " ptnml " << penta[0] << "," << penta[1] << "," << penta[2] << ","
                 << penta[3] << "," << penta[4] << " ldw " << ldw[0] << "," << ldw[1] << ","
                 << ldw[2] << " elo0 " << elo0 << " elo1 " << elo1);

    const EloEstimate ep = get_elo(std::span<const double>(penta));
    CHECK(close(ep.elo, c["elo"].number, 1e-9));
    CHECK(close(ep.elo95, c["elo95"].number, 1e-9));
    CHECK(close(ep.los, c["los"].number, 1e-300));
    CHECK(close(llr_normalized(elo0, elo1, penta), c["llr_normalized"].number, 1e-12));
    CHECK(close(llr_logistic(elo0, elo1, penta), c["llr_logistic"].number, 1e-12));

    const EloEstimate et = get_elo(std::span<const double>(ldw));
    CHECK(close(et.elo, c["elo_ldw"].number, 1e-9));
    CHECK(close(et.elo95, c["elo95_ldw"].number, 1e-9));
    CHECK(close(et.los, c["los_ldw"].number, 1e-300));
    CHECK(close(llr_normalized(elo0, elo1, ldw), c["llr_normalized_ldw"].number, 1e-12));
    CHECK(close(llr_logistic(elo0, elo1, ldw), c["llr_logistic_ldw"].number, 1e-12));
    ++checked;
  }
  CHECK(checked == 60);
}

TEST_CASE("the LLR dispatch follows the model", "[stats][vectors]") {
  const std::vector<double> penta{43, 61, 144, 55, 37};
  CHECK(llr(EloModel::Normalized, -3, 1, penta) == llr_normalized(-3, 1, penta));
  CHECK(llr(EloModel::Logistic, -3, 1, penta) == llr_logistic(-3, 1, penta));
  CHECK(llr_normalized(-3, 1, penta) != llr_logistic(-3, 1, penta));
}

// tests/data/sprt_vectors_anchors.json: W/L/D counts with the LLR cutechess-cli computes
// (its sprt.cpp, BayesElo with the sample's draw Elo) and fastchess's model=bayesian, written
// by a transcription of each tool's formula (sprt_vectors_anchors.py, SOURCES.md).
TEST_CASE("sprt_vectors_anchors.json: cutechess's and fastchess's bayesian LLR",
          "[stats][vectors]") {
  const std::string path = knightly::test::data_path("sprt_vectors_anchors.json");
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const Json doc = knightly::test::JsonReader(text).parse();
  const auto& cases = doc["cases"].items;
  REQUIRE(cases.size() >= 20);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Json& c = cases[i];
    const double w = c["wins"].number, l = c["losses"].number, d = c["draws"].number;
    const double elo0 = c["elo0"].number, elo1 = c["elo1"].number;
    INFO("case " << i << ": " << w << " W, " << l << " L, " << d << " D at [" << elo0 << ", "
                 << elo1 << "]");
    const std::vector<double> ldw{l, d, w};
    CHECK(close(llr_cutechess(elo0, elo1, ldw), c["llr_cutechess"].number, 1e-12));
    CHECK(close(llr_bayesian(elo0, elo1, ldw), c["llr_fastchess_bayesian"].number, 1e-9));
    // The line cutechess-cli prints for it, from the same status every output reads.
    const SprtConfig config{elo0, elo1, c["alpha"].number, c["beta"].number, EloModel::Cutechess};
    Trinomial t;
    t.wins = std::int64_t(w);
    t.losses = std::int64_t(l);
    t.draws = std::int64_t(d);
    CHECK(cutechess_sprt_line(sprt_status(config, t)) == c["cutechess_line"].text);
  }
  // The example: cutechess prints llr 0.449 where the normalized model gives 0.36.
  const std::vector<double> example{100, 180, 120};
  CHECK(std::abs(llr_cutechess(0, 5, example) - 0.449) < 5e-4);
  CHECK(std::abs(llr_normalized(0, 5, example) - 0.449) > 0.05);
}

TEST_CASE("trinomial-only models read the games of the pairs", "[stats][vectors]") {
  Pentanomial p;
  p.ll = 5;
  p.ld = 20;
  p.wl = 10;
  p.dd = 30;
  p.wd = 25;
  p.ww = 10;
  for (auto m : {EloModel::Bayesian, EloModel::Cutechess}) {
    const SprtConfig config{0, 5, 0.05, 0.05, m};
    CHECK(trinomial_only(m));
    CHECK(sprt_status(config, p).llr == sprt_status(config, p.games()).llr);
    CHECK(sprt_status(config, p).llr != 0);
    CHECK(parse_model(model_name(m)) == m);
  }
  CHECK_FALSE(trinomial_only(EloModel::Normalized));
  CHECK(llr(EloModel::Cutechess, 0, 5, std::vector<double>{1, 2, 3, 4, 5}) == 0);
  CHECK(model_names().size() == 4);
}

// Every case of tests/data/sprt_vectors.json (computed with fishtest's own stat_util and
// LLRcalc): Elo, 95% interval, LOS and both LLR models, on pentanomial and W/D/L counts.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "runner/stats/elo.h"
#include "runner/stats/llr.h"
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

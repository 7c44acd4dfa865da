// SPRT bounds, decisions and validation; the LLR values themselves are checked against
// fishtest in vectors_test.cpp.
#include "runner/stats/sprt.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "runner/stats/elo.h"

using namespace knightly::runner::stats;

TEST_CASE("Wald bounds from alpha and beta", "[stats][sprt]") {
  const SprtBounds b = sprt_bounds(0.05, 0.05);
  CHECK(b.lower == Approx(std::log(0.05 / 0.95)));
  CHECK(b.upper == Approx(std::log(0.95 / 0.05)));
  CHECK(b.upper == Approx(2.944438979));
  const SprtBounds c = sprt_bounds(0.05, 0.10);
  CHECK(c.lower == Approx(-2.251291799));
  CHECK(c.upper == Approx(2.890371758));
}

TEST_CASE("decisions at and beyond the bounds", "[stats][sprt]") {
  const SprtBounds b = sprt_bounds(0.05, 0.05);
  CHECK(decide(0.0, b) == SprtDecision::Continue);
  CHECK(decide(b.upper, b) == SprtDecision::AcceptH1);
  CHECK(decide(b.lower, b) == SprtDecision::AcceptH0);
  CHECK(decide(b.upper - 1e-9, b) == SprtDecision::Continue);
  CHECK(std::string(decision_name(SprtDecision::AcceptH1)) == "H1");
  CHECK(std::string(decision_name(SprtDecision::AcceptH0)) == "H0");
}

TEST_CASE("a clearly stronger engine passes, a clearly weaker one fails", "[stats][sprt]") {
  const SprtConfig config{0, 5, 0.05, 0.05, EloModel::Normalized};
  Pentanomial strong;
  strong.ll = 15;
  strong.ld = 60;
  strong.wl = 90;
  strong.dd = 120;
  strong.wd = 180;
  strong.ww = 135;
  const SprtStatus pass = sprt_status(config, strong);
  CHECK(pass.decision == SprtDecision::AcceptH1);
  CHECK(pass.fraction() >= 1.0);

  Pentanomial weak = strong;
  std::swap(weak.ll, weak.ww);
  std::swap(weak.ld, weak.wd);
  const SprtStatus fail = sprt_status(config, weak);
  CHECK(fail.decision == SprtDecision::AcceptH0);
  CHECK(fail.fraction() <= -1.0);

  // Even results stay undecided early on; both models agree on the direction.
  Pentanomial even;
  even.ll = even.ww = 3;
  even.ld = even.wd = 5;
  even.dd = 10;
  const SprtStatus undecided = sprt_status(config, even);
  CHECK(undecided.decision == SprtDecision::Continue);
  SprtConfig logistic = config;
  logistic.model = EloModel::Logistic;
  CHECK(sprt_status(logistic, strong).llr > 0);
  CHECK(sprt_status(logistic, weak).llr < 0);
  // W/D/L works too.
  CHECK(sprt_status(config, strong.games()).llr > 0);
}

TEST_CASE("no games: LLR 0, Elo 0, LOS 50%", "[stats][sprt]") {
  const SprtConfig config{};
  CHECK(sprt_status(config, Pentanomial{}).llr == 0);
  CHECK(sprt_status(config, Pentanomial{}).decision == SprtDecision::Continue);
  const EloEstimate e = get_elo(Trinomial{});
  CHECK(e.elo == 0);
  CHECK(e.los == 0.5);
  CHECK(std::isfinite(e.elo95));
}

TEST_CASE("one-sided counts stay finite (zero counts regularized)", "[stats][sprt]") {
  Trinomial all_wins;
  all_wins.wins = 50;
  const EloEstimate e = get_elo(all_wins);
  CHECK(std::isfinite(e.elo));
  CHECK(std::isfinite(e.elo95));
  CHECK(e.elo > 1000);
  CHECK(std::isfinite(sprt_status(SprtConfig{}, all_wins).llr));
  CHECK(sprt_status(SprtConfig{}, all_wins).llr > 0);
}

TEST_CASE("validation and model names", "[stats][sprt]") {
  CHECK(validate(SprtConfig{}).has_value());
  CHECK_FALSE(validate(SprtConfig{5, 0, 0.05, 0.05, EloModel::Normalized}).has_value());
  CHECK_FALSE(validate(SprtConfig{0, 5, 0.0, 0.05, EloModel::Normalized}).has_value());
  CHECK_FALSE(validate(SprtConfig{0, 5, 0.05, 1.0, EloModel::Normalized}).has_value());
  CHECK_FALSE(validate(SprtConfig{0, 5, 0.6, 0.5, EloModel::Normalized}).has_value());
  CHECK(validate(SprtConfig{5, 0, 0.05, 0.05, EloModel::Normalized}).error().find("elo0") !=
        std::string::npos);
  CHECK(parse_model("normalized") == EloModel::Normalized);
  CHECK(parse_model("logistic") == EloModel::Logistic);
  CHECK_FALSE(parse_model("bayeselo").has_value());
  CHECK(std::string(model_name(EloModel::Logistic)) == "logistic");
}

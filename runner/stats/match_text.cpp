#include "runner/stats/match_text.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <span>

#include "runner/stats/elo.h"

namespace knightly::runner::stats {
namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

std::string format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  if (n < 0) return {};
  if (static_cast<std::size_t>(n) < sizeof buf)
    return std::string(buf, static_cast<std::size_t>(n));
  std::string out(static_cast<std::size_t>(n) + 1, '\0');
  va_start(args, fmt);
  std::vsnprintf(out.data(), out.size(), fmt, args);
  va_end(args);
  out.resize(static_cast<std::size_t>(n));
  return out;
}

// "%.2f", but a ratio with nothing to divide (0/0) prints "n/a": no NaN in any output. A value
// that rounds to zero prints without a sign (an even score's Elo is -0.0 in floating point), as
// the report's JSON numbers do.
std::string fixed(double v, int decimals) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = format("%.*f", decimals, v);
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

// A ratio as fastchess prints it, but one with nothing to divide by (x/0 or 0/0) is "n/a":
// fishtest and OpenBench read these blocks, and neither "inf" nor "nan" is a figure.
std::string ratio_text(double v, int decimals) {
  return std::isfinite(v) ? format("%.*f", decimals, v) : "n/a";
}

double ratio(std::int64_t num, std::int64_t den) {
  if (den == 0) {
    return num == 0 ? std::numeric_limits<double>::quiet_NaN()
                    : std::numeric_limits<double>::infinity();
  }
  return static_cast<double>(num) / static_cast<double>(den);
}

std::string base_name(const std::string& path) {
  const auto pos = path.find_last_of("/\\");
  return pos == std::string::npos ? path : path.substr(pos + 1);
}

}  // namespace

std::string elo_value_text(const EloEstimate& e, int decimals) {
  if (e.unbounded) return e.all_won() ? "+inf" : "-inf";
  return fixed(e.elo, decimals);
}

std::string elo_interval_text(const EloEstimate& e, int decimals) {
  if (e.unbounded)
    return e.all_won() ? "(100% score, >= " + fixed(e.bound95, decimals) + " at 95%)"
                       : "(0% score, <= " + fixed(e.bound95, decimals) + " at 95%)";
  return "+/- " + fixed(e.elo95, decimals);
}

std::string elo_text(const EloEstimate& e, int decimals) {
  return elo_value_text(e, decimals) + " " + elo_interval_text(e, decimals);
}

double draw_ratio_pairs(const Pentanomial& p) {
  return ratio(p.wl + p.dd, p.pairs());
}
double pairs_ratio(const Pentanomial& p) {
  return ratio(p.ww + p.wd, p.ld + p.ll);
}
double wl_dd_ratio(const Pentanomial& p) {
  return ratio(p.wl, p.dd);
}

std::string fastchess_sprt_line(const SprtConfig& config, double llr) {
  SprtStatus s;
  s.llr = llr;
  s.bounds = sprt_bounds(config.alpha, config.beta);
  return "LLR: " + fixed(llr, 2) + " (" + fixed(s.fraction() * 100.0, 1) + "%) (" +
         fixed(s.bounds.lower, 2) + ", " + fixed(s.bounds.upper, 2) + ") [" +
         fixed(config.elo0, 2) + ", " + fixed(config.elo1, 2) + "]";
}

std::string fastchess_report(const MatchLabel& label, const Trinomial& games,
                             const Pentanomial& pairs, const std::optional<SprtConfig>& sprt,
                             bool penta, std::optional<double> llr_shown) {
  // With pairs every figure is of the finished pairs alone, as fastchess counts them: a game
  // whose partner is still being played is in no line (fishtest asserts Games = 2 x pairs).
  const Trinomial shown = penta ? pairs.games() : games;
  const EloEstimate e = penta ? get_elo(pairs) : get_elo(shown);
  const std::string threads = label.threads.empty() ? "NULL" : label.threads;
  const std::string hash = label.hash.empty() ? "NULL" : label.hash;
  const std::string book = label.book.empty() ? "" : ", " + base_name(label.book);
  const auto n = shown.games();

  std::string out = "Results of " + label.first + " vs " + label.second + " (" +
                    label.time_control + ", " + threads + ", " + hash + book + "):\n";
  // nElo divides by the spread of the results, none at a 100% score: unbounded too.
  const std::string nelo =
      e.unbounded ? elo_value_text(e, 2) : fixed(e.nelo, 2) + " +/- " + fixed(e.nelo95, 2);
  out += "Elo: " + elo_text(e, 2) + ", nElo: " + nelo + "\n";
  const double draws = penta ? draw_ratio_pairs(pairs) : ratio(shown.draws, n);
  out +=
      "LOS: " + fixed(e.los * 100.0, 2) + " %, DrawRatio: " + ratio_text(draws * 100.0, 2) + " %";
  if (penta) out += ", PairsRatio: " + ratio_text(pairs_ratio(pairs), 2);
  out += "\n";
  out += format("Games: %lld, Wins: %lld, Losses: %lld, Draws: %lld, Points: ",
                static_cast<long long>(n), static_cast<long long>(shown.wins),
                static_cast<long long>(shown.losses), static_cast<long long>(shown.draws)) +
         fixed(shown.points(), 1) + " (" +
         ratio_text(shown.points() / static_cast<double>(n) * 100.0, 2) + " %)\n";
  if (penta) {
    out += format("Ptnml(0-2): [%lld, %lld, %lld, %lld, %lld], WL/DD Ratio: ",
                  static_cast<long long>(pairs.ll), static_cast<long long>(pairs.ld),
                  static_cast<long long>(pairs.wl + pairs.dd), static_cast<long long>(pairs.wd),
                  static_cast<long long>(pairs.ww)) +
           ratio_text(wl_dd_ratio(pairs), 2) + "\n";
  }
  if (sprt) {
    const double value = llr_shown
                             ? *llr_shown
                             : (penta ? sprt_status(*sprt, pairs) : sprt_status(*sprt, games)).llr;
    out += fastchess_sprt_line(*sprt, value) + "\n";
  }
  return out;
}

std::string cutechess_elo_line(const Trinomial& games) {
  const EloEstimate e = get_elo(games);
  const double decisive = static_cast<double>(games.wins + games.losses);
  const double los =
      decisive > 0 ? 100.0 * (0.5 + 0.5 * std::erf(static_cast<double>(games.wins - games.losses) /
                                                   std::sqrt(2.0 * decisive)))
                   : 50.0;
  const auto n = games.games();
  const double draws = n > 0 ? static_cast<double>(games.draws) / static_cast<double>(n) : 0.0;
  return "Elo difference: " + elo_text(e, 1) + ", LOS: " + fixed(los, 1) +
         " %, DrawRatio: " + fixed(draws * 100.0, 1) + " %";
}

std::string match_elo_line(const Trinomial& games, const Pentanomial& pairs, bool penta) {
  if (!penta || pairs.pairs() == 0) return cutechess_elo_line(games);
  const EloEstimate e = get_elo(pairs);
  const auto n = pairs.pairs();
  return "Elo difference: " + elo_text(e, 1) + ", LOS: " + fixed(e.los * 100.0, 1) +
         " %, DrawRatio: " + fixed(draw_ratio_pairs(pairs) * 100.0, 1) + " % (from " +
         std::to_string(n) + (n == 1 ? " game pair)" : " game pairs)");
}

std::string cutechess_sprt_line(const SprtStatus& s) {
  const double percent = s.bounds.upper != 0 ? s.llr / s.bounds.upper * 100.0 : 0.0;
  std::string out = format("SPRT: llr %.3g (%.1f%%), lbound %.3g, ubound %.3g", s.llr, percent,
                           s.bounds.lower, s.bounds.upper);
  if (s.decision == SprtDecision::AcceptH0)
    out += " - H0 was accepted";
  else if (s.decision == SprtDecision::AcceptH1)
    out += " - H1 was accepted";
  return out;
}

}  // namespace knightly::runner::stats

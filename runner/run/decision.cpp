#include "runner/run/decision.h"

#include <cstdint>
#include <cstdio>

#include "runner/run/run_options.h"

namespace knightly::runner {
namespace {

std::string counts_text(std::int64_t games, const stats::Pentanomial& p) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "after %lld games, pentanomial %lld %lld %lld %lld %lld",
                (long long)games, (long long)p.ll, (long long)p.ld, (long long)(p.wl + p.dd),
                (long long)p.wd, (long long)p.ww);
  return buf;
}

std::string counts_text(const stats::Trinomial& t) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "after %lld games, trinomial %lld %lld %lld", (long long)t.games(),
                (long long)t.losses, (long long)t.draws, (long long)t.wins);
  return buf;
}

std::string verdict_text(const stats::SprtStatus& s) {
  char buf[96];
  if (s.decision == stats::SprtDecision::AcceptH1)
    std::snprintf(buf, sizeof buf, "sprt: H1 accepted (LLR %.2f >= %.2f) ", s.llr, s.bounds.upper);
  else
    std::snprintf(buf, sizeof buf, "sprt: H0 accepted (LLR %.2f <= %.2f) ", s.llr, s.bounds.lower);
  return buf;
}

std::string llr_text(const stats::SprtStatus& s) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "LLR %.2f, bounds %.2f %.2f", s.llr, s.bounds.lower,
                s.bounds.upper);
  return buf;
}

}  // namespace

std::optional<std::string> sprt_decision(const stats::SprtConfig& sprt,
                                         const stats::Pentanomial& pairs, std::int64_t games) {
  auto s = stats::sprt_status(sprt, pairs);
  if (s.decision == stats::SprtDecision::Continue) return std::nullopt;
  char buf[96];
  if (s.decision == stats::SprtDecision::AcceptH1)
    std::snprintf(buf, sizeof buf, "sprt: H1 accepted (LLR %.2f >= %.2f) ", s.llr, s.bounds.upper);
  else
    std::snprintf(buf, sizeof buf, "sprt: H0 accepted (LLR %.2f <= %.2f) ", s.llr, s.bounds.lower);
  return buf + counts_text(games, pairs);
}

std::optional<std::string> sprt_decision(const stats::SprtConfig& sprt,
                                         const stats::Trinomial& games) {
  auto s = stats::sprt_status(sprt, games);
  if (s.decision == stats::SprtDecision::Continue) return std::nullopt;
  return verdict_text(s) + counts_text(games);
}

std::string complete_decision(std::int64_t games, const stats::SprtConfig* sprt,
                              const stats::Trinomial& counts) {
  if (sprt) {
    if (auto d = sprt_decision(*sprt, counts)) return *d;
    return "sprt: undecided at max games (" + llr_text(stats::sprt_status(*sprt, counts)) + ") " +
           counts_text(counts);
  }
  return "complete: all " + std::to_string(games) + " games played";
}

std::string complete_decision(std::int64_t games, const stats::SprtConfig* sprt,
                              const stats::Pentanomial& pairs) {
  if (sprt) {
    if (auto d = sprt_decision(*sprt, pairs, games)) return *d;
    return "sprt: undecided at max games (" + llr_text(stats::sprt_status(*sprt, pairs)) + ") " +
           counts_text(games, pairs);
  }
  return "complete: all " + std::to_string(games) + " games played";
}

std::string stop_decision(std::int64_t games, std::int64_t scheduled) {
  return "stopped: knightly stop after " + std::to_string(games) + " of " +
         std::to_string(scheduled) + " games";
}

std::optional<DecidedSprt> decided_sprt(const stats::SprtConfig& sprt,
                                        const std::string& decision) {
  if (!decision.starts_with("sprt: ")) return std::nullopt;
  long long games = 0, c[5] = {0, 0, 0, 0, 0};
  const auto at = decision.find(" after ");
  if (at == std::string::npos) return std::nullopt;
  const char* tail = decision.c_str() + at;
  DecidedSprt d;
  if (std::sscanf(tail, " after %lld games, pentanomial %lld %lld %lld %lld %lld", &games, &c[0],
                  &c[1], &c[2], &c[3], &c[4]) == 6) {
    // WL and DD are one class for the LLR: the text keeps their sum.
    const stats::Pentanomial p{c[0], c[1], 0, c[2], c[3], c[4]};
    d.status = stats::sprt_status(sprt, p);
  } else if (std::sscanf(tail, " after %lld games, trinomial %lld %lld %lld", &games, &c[0], &c[1],
                         &c[2]) == 4) {
    d.status = stats::sprt_status(sprt, stats::Trinomial{c[0], c[1], c[2]});
  } else {
    return std::nullopt;
  }
  d.games = games;
  return d;
}

std::optional<int> exit_code_of(const std::string& d) {
  if (d.starts_with("sprt: H1")) return ExitOk;
  if (d.starts_with("sprt: H0")) return ExitH0;
  if (d.starts_with("sprt: undecided")) return ExitUndecided;
  if (d.starts_with("complete:")) return ExitOk;
  if (d.starts_with("stopped:")) return ExitUndecided;
  if (d.starts_with("failed:")) return ExitError;  // engines from source: run_sources.h
  return std::nullopt;
}

std::optional<std::int64_t> decided_games(const std::string& d) {
  const auto at = d.find(" after ");
  if (at == std::string::npos || d.starts_with("complete:")) return std::nullopt;
  std::int64_t n = 0;
  std::size_t i = at + 7;
  if (i >= d.size() || d[i] < '0' || d[i] > '9') return std::nullopt;
  for (; i < d.size() && d[i] >= '0' && d[i] <= '9'; ++i) {
    if (n > (INT64_MAX - 9) / 10) return std::nullopt;
    n = n * 10 + (d[i] - '0');
  }
  return n;
}

}  // namespace knightly::runner

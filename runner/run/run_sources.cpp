#include "runner/run/run_sources.h"

#include <cmath>
#include <cstdio>

#include "runner/config/engine_check.h"

namespace knightly::runner {
namespace {

std::string short_sha(const std::string& sha) {
  return sha.substr(0, 12);
}

std::string seconds_text(std::chrono::milliseconds ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", double(ms.count()) / 1000.0);
  return buf;
}

std::string number_text(double v, const char* format = "%.0f") {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::int64_t scaled(std::int64_t ms, double factor) {
  if (ms <= 0) return ms;
  return std::max<std::int64_t>(1, std::llround(double(ms) * factor));
}

}  // namespace

bool has_sources(const Config& config) {
  if (config.tournament.reference_nps > 0) return true;
  for (const auto& e : config.engines)
    if (e.source) return true;
  return false;
}

TimeControl scale_time_control(const TimeControl& tc, double factor) {
  TimeControl t = tc;
  if (t.infinite) return t;
  t.time_ms = scaled(t.time_ms, factor);
  t.increment_ms = scaled(t.increment_ms, factor);
  t.movetime_ms = scaled(t.movetime_ms, factor);
  return t;
}

std::string failed_decision(const std::string& why) {
  return "failed: " + why;
}

std::expected<PreparedSources, SourceError> prepare_sources(
    Config& config, db::Store& store, std::int64_t tournament_id, SourceCache& cache,
    const std::function<void(const std::string&)>& say, const std::function<bool()>& cancelled) {
  PreparedSources out;
  const bool scaling = config.tournament.reference_nps > 0;
  const std::size_t base = config.engines.size() - 1;  // whose bench gives the speed
  std::optional<double> base_nps;
  const auto stored = store.test_queue().source_commits(tournament_id);
  for (std::size_t i = 0; i < config.engines.size(); ++i) {
    EngineConfig& e = config.engines[i];
    if (!e.source) continue;
    EngineSource& s = *e.source;
    // The commit: stored with the tournament, else resolved now and stored for every worker.
    std::optional<db::SourceCommitRecord> record;
    for (const auto& r : stored)
      if (r.engine == int(i)) record = r;
    SourceCommit commit;
    if (record && !record->commit.empty()) {
      auto c = cache.commit(s, record->commit);
      if (!c) return std::unexpected(c.error());
      commit = *c;
    } else {
      auto c = cache.resolve(s);
      if (!c) return std::unexpected(c.error());
      db::SourceCommitRecord fresh;
      fresh.engine = int(i);
      fresh.name = e.name;
      fresh.repo = s.repo;
      fresh.ref = s.ref;
      fresh.commit = c->sha;
      fresh.subject = c->subject();
      if (auto b = expected_bench(s, *c)) fresh.bench = std::int64_t(*b);
      const auto kept = store.test_queue().record_source_commit(tournament_id, fresh);
      if (kept.commit == c->sha) {
        commit = *c;
      } else {  // another worker resolved it first (the branch moved between us): theirs
        auto theirs = cache.commit(s, kept.commit);
        if (!theirs) return std::unexpected(theirs.error());
        commit = *theirs;
      }
    }
    s.commit = commit.sha;
    const std::string who =
        "engine '" + e.name + "' (" + s.repo + " at " + short_sha(s.commit) + ")";
    const auto t0 = std::chrono::steady_clock::now();
    auto built = cache.build(s, s.commit);
    if (!built) return std::unexpected(built.error());
    e.command = built->program;
    if (built->reused)
      say(who + ": " + commit.subject() + "; built before: " + built->program);
    else
      say(who + ": " + commit.subject() + "; built in " +
          seconds_text(std::chrono::duration_cast<std::chrono::milliseconds>(
              std::chrono::steady_clock::now() - t0)) +
          ": " + built->program);
    const auto expected = expected_bench(s, commit);
    if (!expected && !(scaling && i == base)) continue;
    auto bench = run_bench(e.command, std::chrono::minutes(10), cancelled);
    if (!bench) return std::unexpected(bench.error());
    if (expected)
      if (auto refusal = check_bench(bench->figures.nodes, *expected, who, s))
        return std::unexpected(*refusal);
    if (i == base) base_nps = bench->nps;
  }
  if (!scaling) return out;
  if (!base_nps) {
    const EngineConfig& e = config.engines[base];
    if (e.builtin || e.command.empty())
      return std::unexpected(
          SourceError{SourceError::Kind::Refused,
                      "reference_nps: the speed comes from the bench of the last engine ('" +
                          e.name + "'), which is not a program with a bench command"});
    const char* path_env = std::getenv("PATH");
    const auto program = find_program(e.command, path_env ? path_env : "");
    auto bench = run_bench(program.value_or(e.command), std::chrono::minutes(10), cancelled);
    if (!bench) return std::unexpected(bench.error());
    base_nps = bench->nps;
  }
  if (!(*base_nps > 0))
    return std::unexpected(
        SourceError{SourceError::Kind::Local, "the bench of engine '" + config.engines[base].name +
                                                  "' gave no speed (0 nodes per second)"});
  out.nps = *base_nps;
  out.tc_factor = config.tournament.reference_nps / *base_nps;
  auto& defaults = config.tournament.defaults;
  const std::string before = defaults.tc ? format_time_control(*defaults.tc) : "";
  if (defaults.tc) defaults.tc = scale_time_control(*defaults.tc, out.tc_factor);
  for (auto& e : config.engines)
    if (e.limits.tc) e.limits.tc = scale_time_control(*e.limits.tc, out.tc_factor);
  say("This worker's speed: " + number_text(*base_nps) + " nps (the bench of '" +
      config.engines[base].name + "'); time controls x" + number_text(out.tc_factor, "%.3f") +
      " (reference " + number_text(config.tournament.reference_nps) + " nps)" +
      (before.empty() ? std::string()
                      : ": " + before + " -> " + format_time_control(*defaults.tc)));
  return out;
}

}  // namespace knightly::runner

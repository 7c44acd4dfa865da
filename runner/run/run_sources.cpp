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

namespace {

// Engine `i`'s commit: the one stored with the tournament, else its ref resolved now and stored
// for every worker (the first worker's resolution wins).
std::expected<SourceCommit, SourceError> source_commit(
    db::Store& store, std::int64_t tournament_id, std::size_t i, const EngineConfig& e,
    const std::vector<db::SourceCommitRecord>& stored, SourceCache& cache) {
  const EngineSource& s = *e.source;
  std::optional<db::SourceCommitRecord> record;
  for (const auto& r : stored)
    if (r.engine == int(i)) record = r;
  if (record && !record->commit.empty()) return cache.commit(s, record->commit);
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
  if (kept.commit == c->sha) return *c;
  // Another worker resolved it first (the branch moved between us): theirs.
  return cache.commit(s, kept.commit);
}

// Builds engine `e` at its commit (or finds this machine's build) and checks its bench; the
// bench's speed when it was run.
std::expected<std::optional<double>, SourceError> build_engine(
    EngineConfig& e, const SourceCommit& commit, bool needs_speed, SourceCache& cache,
    const std::function<void(const std::string&)>& say, const std::function<bool()>& cancelled) {
  EngineSource& s = *e.source;
  s.commit = commit.sha;
  const std::string who = "engine '" + e.name + "' (" + s.repo + " at " + short_sha(s.commit) + ")";
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
  if (!expected && !needs_speed) return std::nullopt;
  auto bench = run_bench(e.command, std::chrono::minutes(10), cancelled);
  if (!bench) return std::unexpected(bench.error());
  if (expected)
    if (auto refusal = check_bench(bench->figures.nodes, *expected, who, s))
      return std::unexpected(*refusal);
  return bench->nps;
}

// The speed of the last engine (a test's base) when it has no source: its own bench.
std::expected<double, SourceError> bench_speed(const EngineConfig& e,
                                               const std::function<bool()>& cancelled) {
  if (e.builtin || e.command.empty())
    return std::unexpected(
        SourceError{SourceError::Kind::Refused,
                    "reference_nps: the speed comes from the bench of the last engine ('" + e.name +
                        "'), which is not a program with a bench command"});
  const char* path_env = std::getenv("PATH");
  const auto program = find_program(e.command, path_env ? path_env : "");
  auto bench = run_bench(program.value_or(e.command), std::chrono::minutes(10), cancelled);
  if (!bench) return std::unexpected(bench.error());
  return bench->nps;
}

// Every time control of `config` scaled fishtest's way for a worker of speed `nps`.
std::expected<PreparedSources, SourceError> scale_to_speed(
    Config& config, double nps, const std::function<void(const std::string&)>& say) {
  const std::size_t base = config.engines.size() - 1;
  if (!(nps > 0))
    return std::unexpected(
        SourceError{SourceError::Kind::Local, "the bench of engine '" + config.engines[base].name +
                                                  "' gave no speed (0 nodes per second)"});
  PreparedSources out;
  out.nps = nps;
  out.tc_factor = config.tournament.reference_nps / nps;
  auto& defaults = config.tournament.defaults;
  const std::string before = defaults.tc ? format_time_control(*defaults.tc) : "";
  if (defaults.tc) defaults.tc = scale_time_control(*defaults.tc, out.tc_factor);
  for (auto& e : config.engines)
    if (e.limits.tc) e.limits.tc = scale_time_control(*e.limits.tc, out.tc_factor);
  say("This worker's speed: " + number_text(nps) + " nps (the bench of '" +
      config.engines[base].name + "'); time controls x" + number_text(out.tc_factor, "%.3f") +
      " (reference " + number_text(config.tournament.reference_nps) + " nps)" +
      (before.empty() ? std::string()
                      : ": " + before + " -> " + format_time_control(*defaults.tc)));
  return out;
}

}  // namespace

std::expected<PreparedSources, SourceError> prepare_sources(
    Config& config, db::Store& store, std::int64_t tournament_id, SourceCache& cache,
    const std::function<void(const std::string&)>& say, const std::function<bool()>& cancelled) {
  const bool scaling = config.tournament.reference_nps > 0;
  const std::size_t base = config.engines.size() - 1;  // whose bench gives the speed
  std::optional<double> base_nps;
  const auto stored = store.test_queue().source_commits(tournament_id);
  for (std::size_t i = 0; i < config.engines.size(); ++i) {
    EngineConfig& e = config.engines[i];
    if (!e.source) continue;
    auto commit = source_commit(store, tournament_id, i, e, stored, cache);
    if (!commit) return std::unexpected(commit.error());
    auto nps = build_engine(e, *commit, scaling && i == base, cache, say, cancelled);
    if (!nps) return std::unexpected(nps.error());
    if (i == base && *nps) base_nps = **nps;
  }
  if (!scaling) return PreparedSources{};
  if (!base_nps) {
    auto nps = bench_speed(config.engines[base], cancelled);
    if (!nps) return std::unexpected(nps.error());
    base_nps = *nps;
  }
  return scale_to_speed(config, *base_nps, say);
}

}  // namespace knightly::runner

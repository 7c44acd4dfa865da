// knightly run / play / sprt: play games into the database.
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>

#include "db/store/sha256.h"
#include "runner/cli/final_report.h"
#include "runner/cli/interval_report.h"
#include "runner/cli/progress.h"
#include "runner/cli/signals.h"
#include "runner/cli/sprt_command.h"
#include "runner/cli/subcommand.h"
#include "runner/config/config_toml.h"
#include "runner/config/config_validate.h"
#include "runner/config/play_flags.h"
#include "runner/match/time_control.h"
#include "runner/run/run.h"
#include "runner/tournament/schedule.h"

namespace knightly::runner {
namespace {

int usage_error(const std::string& message) {
  std::cerr << "knightly: " << message << "\n";
  return ExitError;
}

// Options the three commands share; true when `flag` was one of them.
std::expected<bool, std::string> common_flag(const std::string& flag, Args& args,
                                             RunOptions& options) {
  if (flag == "--sync") {
    auto v = args.value(flag);
    if (!v) return std::unexpected(v.error());
    if (*v != "full" && *v != "normal")
      return std::unexpected(flag + ": '" + *v + "' (full or normal)");
    options.sync = *v;
    return true;
  }
  if (flag == "--quiet") {
    options.quiet = true;
    return true;
  }
  if (flag == "--perf-stats") {
    options.perf_stats = true;
    return true;
  }
  if (flag == "--log-dir") {
    auto v = args.value(flag);
    if (!v) return std::unexpected(v.error());
    options.log_dir = *v;
    return true;
  }
  if (flag == "--lease") {
    auto v = args.value(flag);
    if (!v) return std::unexpected(v.error());
    auto s = parse_seconds(*v);
    if (!s) return std::unexpected(flag + ": " + s.error());
    if (*s < 200) return std::unexpected(flag + ": '" + *v + "' is too short (at least 0.2 s)");
    options.lease = std::chrono::milliseconds(*s);
    return true;
  }
  if (flag == "--on-stop") {
    auto v = args.value(flag);
    if (!v) return std::unexpected(v.error());
    if (*v != "finish" && *v != "abandon")
      return std::unexpected(flag + ": '" + *v + "' (finish or abandon)");
    options.on_stop = *v == "finish" ? OnStop::Finish : OnStop::Abandon;
    return true;
  }
  if (flag == "--cache") {  // engines built from source (runner/source/source_cache.h)
    auto v = args.value(flag);
    if (!v) return std::unexpected(v.error());
    options.source_cache = *v;
    return true;
  }
  if (flag == "--stall-timeout") {
    auto v = args.value(flag);
    if (!v) return std::unexpected(v.error());
    auto s = parse_seconds(*v);
    if (!s) return std::unexpected(flag + ": " + s.error());
    options.driver.untimed_deadline = std::chrono::milliseconds(*s);
    return true;
  }
  return false;
}

// The style an [output] format names ("knightly", "cutechess", "fastchess"); `fallback` for "".
OutputStyle output_style(const std::string& format, OutputStyle fallback) {
  if (format == "knightly") return OutputStyle::Knightly;
  if (format == "cutechess") return OutputStyle::Cutechess;
  if (format == "fastchess") return OutputStyle::Fastchess;
  return fallback;
}

// Plays the tournament (this process's share of it), shows it, and returns the exit code.
int run_and_report(const Config& config, const RunOptions& options) {
  const bool two = config.engines.size() == 2;
  Progress progress(std::cout, std::cerr, options.quiet, two ? config.engines[0].name : "",
                    two ? config.engines[1].name : "");
  // cutechess's and fastchess's styles print their own lines every so many games.
  if (options.style != OutputStyle::Knightly)
    progress.set_intervals(
        interval_settings(config, options.sprt_label_tc,
                          schedule_has_pairs(config.tournament) && config.output.report_penta,
                          options.style == OutputStyle::Fastchess));
  Run run(config, options, progress);
  install_interrupt_handlers(run.stop_token());
  RunSummary summary = run.execute();
  print_final_report(std::cout, std::cerr, config, options, summary);
  if (options.perf_stats) print_perf_stats(std::cout, summary);
  uninstall_interrupt_handlers();
  return summary.exit_code;
}

}  // namespace

int cmd_run(Args& args) {
  std::string path, db, pgn;
  std::optional<int> concurrency;
  RunOptions options;
  while (!args.empty()) {
    std::string a = args.take();
    auto common = common_flag(a, args, options);
    if (!common) return usage_error("run: " + common.error());
    if (*common) continue;
    if (a == "--db" || a == "--pgn") {
      auto v = args.value(a);
      if (!v) return usage_error("run: " + v.error());
      (a == "--db" ? db : pgn) = *v;
    } else if (a == "--restart") {
      options.restart = true;
    } else if (a == "--concurrency") {
      // Not part of the config: every worker of a tournament has the config's text, and
      // each may use as many cores as its machine (or its Slurm task) has.
      auto v = args.value(a);
      if (!v) return usage_error("run: " + v.error());
      auto n = parse_int(a, *v, 1, 1024);
      if (!n) return usage_error("run: " + n.error());
      concurrency = int(*n);
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("run: unknown option '" + a + "'");
    } else if (path.empty()) {
      path = a;
    } else {
      return usage_error("run: more than one config file ('" + path + "', '" + a + "')");
    }
  }
  if (path.empty()) return usage_error("run: no config file (knightly run CONFIG.toml)");
  auto config = load_config_file(path);
  if (!config) return usage_error(config.error().to_string());
  if (!db.empty()) config->output.database = db;
  if (!pgn.empty()) config->output.pgn = pgn;
  if (concurrency) config->tournament.concurrency = *concurrency;
  if (config->sprt.enabled) options.kind = db::TournamentKind::Sprt;
  options.style = output_style(config->output.format, OutputStyle::Knightly);
  return run_and_report(*config, options);
}

int cmd_play(Args& args) {
  std::vector<std::string> words;
  RunOptions options;
  options.style = OutputStyle::Cutechess;
  while (!args.empty()) {
    std::string a = args.take();
    if (a == "--restart") {
      options.restart = true;
      continue;
    }
    auto common = common_flag(a, args, options);
    if (!common) return usage_error("play: " + common.error());
    if (!*common) words.push_back(a);
  }
  auto command = parse_play_flags(words);
  if (!command) return usage_error(command.error().to_string());
  const Config& config = command->config;
  if (config.sprt.enabled) options.kind = db::TournamentKind::Sprt;
  options.style = output_style(config.output.format, OutputStyle::Cutechess);
  for (const auto& note : command->notes) std::cout << "Note: " << note << "\n";
  return run_and_report(config, options);
}

std::expected<SprtCommand, std::string> parse_sprt_command(Args& args) {
  SprtCommand command;
  std::string new_spec, base_spec, tc, book, db = "knightly.db", name;
  std::optional<int> depth;
  std::optional<std::uint64_t> nodes;
  SprtConfig sprt;
  sprt.enabled = true;
  int concurrency = 1, max_games = 20000, random_plies = -1;
  std::optional<std::uint64_t> seed;
  RunOptions& options = command.options;
  options.kind = db::TournamentKind::Sprt;
  double reference_nps = 0;
  while (!args.empty()) {
    std::string a = args.take();
    auto common = common_flag(a, args, options);
    if (!common) return std::unexpected("sprt: " + common.error());
    if (*common) continue;
    if (a == "--restart") {
      options.restart = true;
      continue;
    }
    if (a == "--submit") {  // knightly submit: queued for `knightly work`, not played here
      command.submit = true;
      continue;
    }
    auto v = args.value(a);
    if (!v) return std::unexpected("sprt: " + v.error());
    auto number = [&](double& out) {
      auto d = parse_double(a, *v);
      if (d) out = *d;
      return d.has_value() ? std::string() : d.error();
    };
    auto integer = [&](auto& out, long long min, long long max) {
      auto i = parse_int(a, *v, min, max);
      if (i) out = decltype(+out)(*i);
      return i.has_value() ? std::string() : i.error();
    };
    std::string error;
    if (a == "--new")
      new_spec = *v;
    else if (a == "--base")
      base_spec = *v;
    else if (a == "--elo0")
      error = number(sprt.elo0);
    else if (a == "--elo1")
      error = number(sprt.elo1);
    else if (a == "--alpha")
      error = number(sprt.alpha);
    else if (a == "--beta")
      error = number(sprt.beta);
    else if (a == "--model")
      sprt.model = *v;
    else if (a == "--tc")
      tc = *v;
    else if (a == "--depth") {
      int d = 0;
      error = integer(d, 1, 1000);
      depth = d;
    } else if (a == "--nodes") {
      long long n = 0;
      error = integer(n, 1, (long long)1e15);
      nodes = std::uint64_t(n);
    } else if (a == "--book")
      book = *v;
    else if (a == "--random-plies")
      error = integer(random_plies, 0, 100);
    else if (a == "--concurrency")
      error = integer(concurrency, 1, 1024);
    else if (a == "--db")
      db = *v;
    else if (a == "--name")
      name = *v;
    else if (a == "--priority")
      error = integer(command.priority, -1000000, 1000000);
    else if (a == "--submitter")
      command.submitter = *v;
    else if (a == "--reference-nps") {
      error = number(reference_nps);
      if (error.empty() && !(reference_nps > 0))
        error = "--reference-nps: '" + *v + "' (a speed in nodes per second above 0)";
    } else if (a == "--max-games")
      error = integer(max_games, 2, 100000000);
    else if (a == "--seed") {
      long long s = 0;
      error = integer(s, 1, std::numeric_limits<long long>::max());
      seed = std::uint64_t(s);
    } else
      return std::unexpected("sprt: unknown option '" + a + "'");
    if (!error.empty()) return std::unexpected("sprt: " + error);
  }
  if (new_spec.empty() || base_spec.empty())
    return std::unexpected("sprt: both --new SPEC and --base SPEC are required");
  if (sprt.model != "normalized" && sprt.model != "logistic")
    return std::unexpected("sprt: --model: '" + sprt.model + "' (normalized or logistic)");

  Config& config = command.config;
  for (auto [spec, label] : {std::pair{new_spec, "New"}, std::pair{base_spec, "Base"}}) {
    auto e = parse_engine_spec(spec);
    if (!e)
      return std::unexpected("sprt: --" +
                             std::string(label == std::string("New") ? "new" : "base") + ": " +
                             e.error().to_string());
    // fishtest's convention: the figures are New's against Base unless the spec names them.
    if (spec.find("name=") == std::string::npos) e->name = label;
    config.engines.push_back(*e);
  }
  if (!tc.empty()) {
    auto t = parse_time_control(tc);
    if (!t) return std::unexpected("sprt: --tc: " + t.error());
    config.tournament.defaults.tc = *t;
    options.sprt_label_tc = tc;
  }
  config.tournament.defaults.depth = depth;
  config.tournament.defaults.nodes = nodes;
  if (depth) options.sprt_label_tc = "depth " + std::to_string(*depth);
  if (nodes) options.sprt_label_tc = std::to_string(*nodes) + " nodes";
  if (tc.empty() && !depth && !nodes)
    return std::unexpected("sprt: give a limit: --tc TC, --depth N or --nodes N");
  config.tournament.rounds = (max_games + 1) / 2;
  config.tournament.games_per_encounter = 2;
  config.tournament.repeat = true;
  config.tournament.concurrency = concurrency;
  config.sprt = sprt;
  if (!book.empty()) {
    config.openings.file = book;
    config.openings.format = book.ends_with(".pgn") ? "pgn" : "epd";
  }
  // Without a book every pair would start from the initial position; a few random plies
  // (the same for both games of a pair) give the test its variety.
  config.openings.random_plies = random_plies >= 0 ? random_plies : (book.empty() ? 4 : 0);
  config.output.database = db;
  config.tournament.reference_nps = reference_nps;

  // The command's own words identify the test, so running it again resumes it.
  std::string text = "knightly sprt --new " + new_spec + " --base " + base_spec + " --tc " + tc +
                     " --depth " + (depth ? std::to_string(*depth) : "") + " --nodes " +
                     (nodes ? std::to_string(*nodes) : "") + " --book " + book + " --elo0 " +
                     std::to_string(sprt.elo0) + " --elo1 " + std::to_string(sprt.elo1) +
                     " --alpha " + std::to_string(sprt.alpha) + " --beta " +
                     std::to_string(sprt.beta) + " --model " + sprt.model + " --max-games " +
                     std::to_string(max_games) + " --random-plies " +
                     std::to_string(config.openings.random_plies) +
                     (seed ? " --seed " + std::to_string(*seed) : "") +
                     (reference_nps > 0 ? " --reference-nps " + std::to_string(reference_nps) : "");
  config.source_text = text;
  const std::string digest = db::sha256_hex(text);
  config.tournament.name = name.empty() ? "sprt-" + digest.substr(0, 12) : name;
  // The same command plays the same openings, in any database: a gate is reproducible.
  config.tournament.seed = seed ? *seed : std::stoull(digest.substr(0, 15), nullptr, 16) | 1;
  if (auto e = validate_config(config)) return std::unexpected("sprt: " + e->to_string());
  command.max_games = max_games;
  return command;
}

int cmd_sprt(Args& args) {
  const std::vector<std::string> words = args.rest();
  auto command = parse_sprt_command(args);
  if (!command) return usage_error(command.error());
  const Config& config = command->config;
  if (command->submit) return submit_sprt(*command, words);
  const SprtConfig& sprt = config.sprt;
  std::cout << "SPRT '" << config.tournament.name << "': " << config.engines[0].name << " vs "
            << config.engines[1].name << ", elo0 " << sprt.elo0 << ", elo1 " << sprt.elo1
            << ", alpha " << sprt.alpha << ", beta " << sprt.beta << ", at most "
            << command->max_games << " games\n";
  return run_and_report(config, command->options);
}

}  // namespace knightly::runner

// knightly run / play / sprt: play games into the database. Every option is a row of the match
// schema (runner/config/match_schema.h): its type, range and meaning come from there, and the
// code here handles only what the worker itself is told (the rows without a config key).
#include <ctime>
#include <iostream>
#include <optional>

#include "db/store/sha256.h"
#include "runner/cli/signals.h"
#include "runner/cli/sprt_command.h"
#include "runner/cli/subcommand.h"
#include "runner/config/config_toml.h"
#include "runner/config/config_validate.h"
#include "runner/config/match_schema.h"
#include "runner/config/play_flags.h"
#include "runner/match/time_control.h"
#include "runner/output/interval_lines.h"
#include "runner/output/progress.h"
#include "runner/output/run_end.h"
#include "runner/output/run_style.h"
#include "runner/output/tune_view.h"
#include "runner/run/run.h"
#include "runner/tournament/schedule.h"

namespace knightly::runner {
namespace {

int usage_error(const std::string& message) {
  std::cerr << "knightly: " << message << "\n";
  return ExitError;
}

// One value of a schema row given as a Knightly flag ("--concurrency 4"), or an error naming it.
std::expected<Value, std::string> flag_value(const MatchKey& key, const std::string& flag,
                                             Args& args) {
  if (key.type == ValueType::Flag) return true;
  auto v = args.value(flag);
  if (!v) return std::unexpected(v.error());
  auto parsed = parse_value(key, *v);
  if (!parsed) return std::unexpected(flag + ": " + parsed.error());
  return parsed;
}

// The worker's own options (the schema's rows of Knightly flags with no config key), shared by
// the three commands; true when `flag` was one of them.
std::expected<bool, std::string> worker_flag(const std::string& flag, Args& args,
                                             RunOptions& options, Presentation& presentation) {
  const MatchKey* key = key_by_knightly(flag, CommandRun);
  if (!key || !key->toml.empty() || !key->flag.empty()) return false;
  auto v = flag_value(*key, flag, args);
  if (!v) return std::unexpected(v.error());
  if (flag == "--restart") {
    options.restart = true;
  } else if (flag == "--quiet") {
    presentation.quiet = true;
  } else if (flag == "--perf-stats") {
    options.perf_stats = true;
  } else if (flag == "--log-dir") {
    options.log_dir = std::get<std::string>(*v);
  } else if (flag == "--cache") {  // engines built from source (runner/source/source_cache.h)
    options.source_cache = std::get<std::string>(*v);
  } else if (flag == "--lease") {
    const double s = std::get<double>(*v);
    if (s < 0.2)
      return std::unexpected(flag + ": " + std::to_string(s) + " is too short (at least 0.2 s)");
    options.lease = std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000 + 0.5));
  } else if (flag == "--on-stop") {
    options.on_stop = std::get<std::int64_t>(*v) == 0 ? OnStop::Finish : OnStop::Abandon;
  } else if (flag == "--stall-timeout") {
    const double s = std::get<double>(*v);
    if (s <= 0) return std::unexpected(flag + ": must be more than 0 seconds");
    options.driver.untimed_deadline =
        std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000));
  } else {
    return std::unexpected(flag + ": the schema has it but `knightly` does not (a bug)");
  }
  return true;
}

// Plays the tournament (this process's share of it), shows it, and returns the exit code;
// `finished` (when given) says whether the tournament ran to its end (not stopped, not cut
// short).
int run_and_report(const Config& config, const RunOptions& options,
                   const Presentation& presentation, bool* finished = nullptr) {
  const bool two = config.engines.size() == 2;
  const auto style = make_run_style(presentation.style);
  Progress progress(std::cout, std::cerr, presentation.quiet, two ? config.engines[0].name : "",
                    two ? config.engines[1].name : "");
  // cutechess's and fastchess's styles print their own lines every so many games.
  if (auto intervals = style->intervals(config)) progress.set_intervals(*intervals);
  Run run(config, options, progress);
  install_interrupt_handlers(run.stop_token());
  RunSummary summary = run.execute();
  print_final_report(std::cout, std::cerr, config, *style, summary, progress.intervals_shown());
  if (summary.tune) print_tune_summary(std::cout, *summary.tune);
  if (options.perf_stats) print_perf_stats(std::cout, summary);
  uninstall_interrupt_handlers();
  if (finished) *finished = summary.finished && !summary.stopped;
  return summary.exit_code;
}

// fastchess's name for an output file given without one: fastchess_20260801_142501.pgn.
std::string fastchess_default_file(const std::string& extension) {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[64];
  std::strftime(buf, sizeof buf, "fastchess_%Y%m%d_%H%M%S.", &local);
  return buf + extension;
}

}  // namespace

namespace {

// knightly run CONFIG.toml, and knightly tune CONFIG.toml (the same, for a config with [tune]).
int run_config(Args& args, const std::string& command) {
  std::string path;
  RunOptions options;
  Presentation presentation;
  // --db, --pgn, --concurrency, --sync: not the match, so every worker of a tournament has the
  // config's text and may still write elsewhere or use as many cores as its machine has.
  std::vector<std::pair<const MatchKey*, Value>> overrides;
  while (!args.empty()) {
    std::string a = args.take();
    auto worker = worker_flag(a, args, options, presentation);
    if (!worker) return usage_error(command + ": " + worker.error());
    if (*worker) continue;
    if (const MatchKey* key = key_by_knightly(a, CommandRun)) {
      auto v = flag_value(*key, a, args);
      if (!v) return usage_error(command + ": " + v.error());
      overrides.emplace_back(key, *v);
    } else if (!a.empty() && a[0] == '-') {
      return usage_error(command + ": unknown option '" + a + "' (knightly " + command +
                         " --help)");
    } else if (path.empty()) {
      path = a;
    } else {
      return usage_error(command + ": more than one config file ('" + path + "', '" + a + "')");
    }
  }
  if (path.empty())
    return usage_error(command + ": no config file (knightly " + command + " CONFIG.toml)");
  auto config = load_config_file(path);
  if (!config) return usage_error(config.error().to_string());
  if (command == "tune" && !config->tune.enabled)
    return usage_error(path +
                       ": no [tune] section: knightly tune plays a tune (docs/tuning.md); "
                       "knightly run plays any other config");
  for (const auto& [key, value] : overrides) key->apply(*config, value);
  if (config->sprt.enabled) options.kind = db::TournamentKind::Sprt;
  presentation.style = config->output.format.value_or(OutputStyle::Knightly);
  return run_and_report(*config, options, presentation);
}

}  // namespace

int cmd_run(Args& args) {
  return run_config(args, "run");
}

int cmd_tune(Args& args) {
  return run_config(args, "tune");
}

int cmd_play(Args& args) {
  std::vector<std::string> words;
  RunOptions options;
  Presentation presentation;
  while (!args.empty()) {
    std::string a = args.take();
    auto worker = worker_flag(a, args, options, presentation);
    if (!worker) return usage_error("play: " + worker.error());
    if (!*worker) words.push_back(a);
  }
  auto command = parse_play_flags(words);
  if (!command) return usage_error(command.error().to_string());
  Config& config = command->config;
  if (command->pgn_default_name) config.output.pgn = fastchess_default_file("pgn");
  if (command->epd_default_name) config.output.epd = fastchess_default_file("epd");
  if (config.sprt.enabled) options.kind = db::TournamentKind::Sprt;
  presentation.style = config.output.format.value_or(OutputStyle::Cutechess);
  for (const auto& note : command->notes) std::cout << "Note: " << note << "\n";
  bool finished = false;
  const int code = run_and_report(config, options, presentation, &finished);
  // Both tools exit 0 when the match ran to its end, whatever its SPRT decided: a script's
  // `cutechess-cli ... && next` goes on. The gate's codes are `knightly sprt`'s and `run`'s.
  // A match ended early by `knightly stop` did not run to its end: 3, as `run` gives.
  return finished && (code == ExitH0 || code == ExitUndecided) ? ExitOk : code;
}

std::expected<SprtCommand, std::string> parse_sprt_command(Args& args) {
  SprtCommand command;
  std::string new_spec, base_spec, tc, book;
  std::optional<int> depth, random_plies;
  std::optional<std::uint64_t> nodes;
  bool named = false;
  Config& config = command.config;
  config.sprt.enabled = true;
  RunOptions& options = command.options;
  options.kind = db::TournamentKind::Sprt;
  while (!args.empty()) {
    std::string a = args.take();
    auto worker = worker_flag(a, args, options, command.presentation);
    if (!worker) return std::unexpected("sprt: " + worker.error());
    if (*worker) continue;
    // The queue's own options (cmd_submit.cpp): how the test is queued, not what it is.
    if (a == "--submit") {
      command.submit = true;
      continue;
    }
    if (a == "--priority" || a == "--submitter") {
      auto v = args.value(a);
      if (!v) return std::unexpected("sprt: " + v.error());
      if (a == "--submitter") {
        command.submitter = *v;
        continue;
      }
      auto n = parse_int(a, *v, -1000000, 1000000);
      if (!n) return std::unexpected("sprt: " + n.error());
      command.priority = static_cast<int>(*n);
      continue;
    }
    const MatchKey* key = key_by_knightly(a, CommandSprt);
    if (!key) return std::unexpected("sprt: unknown option '" + a + "' (knightly sprt --help)");
    auto v = flag_value(*key, a, args);
    if (!v) return std::unexpected("sprt: " + v.error());
    if (!(key->custom & CustomSprt)) {
      key->apply(config, *v);
      named = named || key->role == Role::Name;
      continue;
    }
    if (a == "--new") {
      new_spec = std::get<std::string>(*v);
    } else if (a == "--base") {
      base_spec = std::get<std::string>(*v);
    } else if (a == "--tc") {
      tc = std::get<std::string>(*v);
    } else if (a == "--depth") {
      depth = static_cast<int>(std::get<std::int64_t>(*v));
    } else if (a == "--nodes") {
      nodes = static_cast<std::uint64_t>(std::get<std::int64_t>(*v));
    } else if (a == "--book") {
      book = std::get<std::string>(*v);
    } else if (a == "--random-plies") {
      random_plies = static_cast<int>(std::get<std::int64_t>(*v));
    } else if (a == "--max-games") {
      command.max_games = static_cast<int>(std::get<std::int64_t>(*v));
    }
  }
  if (new_spec.empty() || base_spec.empty())
    return std::unexpected("sprt: both --new SPEC and --base SPEC are required");

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
  }
  config.tournament.defaults.depth = depth;
  config.tournament.defaults.nodes = nodes;
  if (tc.empty() && !depth && !nodes)
    return std::unexpected("sprt: give a limit: --tc TC, --depth N or --nodes N");
  config.tournament.rounds = (command.max_games + 1) / 2;
  config.tournament.games_per_encounter = 2;
  config.tournament.repeat = true;
  if (!book.empty()) {
    config.openings.file = book;
    config.openings.format = book_format_of(book).value_or(BookFormat::Epd);
  }
  // Without a book every pair would start from the initial position; a few random plies
  // (the same for both games of a pair) give the test its variety.
  config.openings.random_plies = random_plies.value_or(book.empty() ? 4 : 0);

  // What defines the test identifies it, so running it again (with any concurrency or
  // database) resumes it.
  config.source_text = match_identity(config);
  const std::string digest = db::sha256_hex(config.source_text);
  if (!named) config.tournament.name = "sprt-" + digest.substr(0, 12);
  // The same command plays the same openings, in any database: a gate is reproducible.
  if (!config.tournament.seed)
    config.tournament.seed = std::stoull(digest.substr(0, 15), nullptr, 16) | 1;
  if (auto e = validate_config(config)) return std::unexpected("sprt: " + e->to_string());
  return command;
}

int cmd_sprt(Args& args) {
  const std::vector<std::string> words = args.rest();
  auto command = parse_sprt_command(args);
  if (!command) return usage_error(command.error());
  if (command->submit) return submit_sprt(*command, words);
  const Config& config = command->config;
  std::cout << "SPRT '" << config.tournament.name << "': " << config.engines[0].name << " vs "
            << config.engines[1].name << ", elo0 " << config.sprt.elo0 << ", elo1 "
            << config.sprt.elo1 << ", alpha " << config.sprt.alpha << ", beta " << config.sprt.beta
            << " (" << choice_name(config.sprt.model) << "), at most " << command->max_games
            << " games\n";
  return run_and_report(config, command->options, command->presentation);
}

}  // namespace knightly::runner

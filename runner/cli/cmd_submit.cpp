// knightly submit CONFIG.toml | SPEC words, and knightly sprt ... --submit: a test added to the
// queue of a database for `knightly work` to play (docs/regression-testing.md). Returns at once.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "db/store/database_url.h"
#include "db/store/store.h"
#include "engine/chess/splitmix64.h"
#include "runner/cli/sprt_command.h"
#include "runner/cli/subcommand.h"
#include "runner/config/config_toml.h"
#include "runner/config/engine_source.h"
#include "runner/config/engine_words.h"
#include "runner/run/run.h"
#include "runner/run/run_options.h"
#include "runner/source/command.h"
#include "runner/source/source_cache.h"
#include "runner/tournament/schedule.h"

namespace knightly::runner {
namespace fs = std::filesystem;

namespace {

std::string default_submitter() {
  for (const char* v : {"KNIGHTLY_SUBMITTER", "USER", "LOGNAME"})
    if (const char* s = std::getenv(v); s && *s) return s;
  return "";
}

std::string absolute(const std::string& path) {
  std::error_code ec;
  return fs::absolute(path, ec).lexically_normal().string();
}

// A SPEC with its relative paths (repo=, cmd= with a '/', dir=, a bare program path) made
// absolute: the workers that read it run elsewhere.
std::string absolute_spec(const std::string& spec) {
  auto words = split_words(spec);
  if (!words) return spec;
  bool any_pair = false;
  for (const auto& w : *words) any_pair = any_pair || w.find('=') != std::string::npos;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < words->size(); ++i) {
    std::string w = (*words)[i];
    const auto rewrite = [&](const std::string& key, bool only_paths) {
      if (!w.starts_with(key)) return;
      const std::string v = w.substr(key.size());
      if (v.empty() || fs::path(v).is_absolute() || (key == "repo=" && is_repository_url(v)))
        return;
      if (only_paths && v.find('/') == std::string::npos) return;  // a name looked up in PATH
      w = key + absolute(v);
    };
    if (!any_pair && i == 0 && w.find('/') != std::string::npos && !fs::path(w).is_absolute())
      w = absolute(w);
    rewrite("repo=", false);
    rewrite("cmd=", true);
    rewrite("dir=", false);
    out.push_back(w);
  }
  return command_text(out);
}

// The words a worker rebuilds the test from: the command's own, less what only the submission
// uses, with relative paths made absolute.
std::vector<std::string> definition_words(const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    const bool valued = i + 1 < words.size();
    if (w == "--submit") continue;
    if ((w == "--db" || w == "--priority" || w == "--submitter" || w == "--cache") && valued) {
      ++i;
      continue;
    }
    out.push_back(w);
    if ((w == "--new" || w == "--base") && valued) {
      out.push_back(absolute_spec(words[++i]));
    } else if (w == "--book" && valued) {
      out.push_back(words[i + 1].empty() ? words[i + 1] : absolute(words[i + 1]));
      ++i;
    }
  }
  return out;
}

struct Submission {
  Config config;
  db::TournamentKind kind = db::TournamentKind::Run;
  std::string format;
  std::string definition;
  std::string source_path;
  int priority = 0;
  std::string submitter;
  std::string cache;  // where the submitter's own git mirrors go
};

int submit(const Submission& s) {
  const Config& config = s.config;
  // Its schedule is recorded below: refused at once, naming the key, when it is too large.
  if (auto too_big = check_schedule_limits(config)) return fail(too_big->to_string(), "submit");
  // Every source's ref resolved now, from here: a typo is refused at once, and a branch that
  // moves on later does not change what the test plays.
  std::vector<db::SourceCommitRecord> sources;
  SourceCache cache(SourceCache::root_or_default(s.cache));
  for (std::size_t i = 0; i < config.engines.size(); ++i) {
    const EngineConfig& e = config.engines[i];
    if (!e.source) continue;
    auto c = cache.resolve(*e.source);
    if (!c) {
      bool full_sha = e.source->ref.size() == 40 &&
                      e.source->ref.find_first_not_of("0123456789abcdef") == std::string::npos;
      // Unreachable from here but named exactly: the first worker looks it up.
      if (c.error().kind == SourceError::Kind::Local && full_sha) continue;
      return fail("engine '" + e.name + "': " + c.error().message, "submit");
    }
    db::SourceCommitRecord r;
    r.engine = int(i);
    r.name = e.name;
    r.repo = e.source->repo;
    r.ref = e.source->ref;
    r.commit = c->sha;
    r.subject = c->subject();
    if (auto b = expected_bench(*e.source, *c)) r.bench = std::int64_t(*b);
    sources.push_back(r);
  }
  db::StoreOptions so;
  auto store = db::Store::open(config.output.database, so);
  if (!store) return fail(store.error().message, "submit");
  // As a run chooses it (Run::prepare): the config's, else a random one, stored.
  const std::uint64_t seed =
      config.tournament.seed ? *config.tournament.seed : chess::random_seed();
  db::NewTest test;
  // Stored as a run stores its config: without the password of any database URL in it (the
  // workers take their own --db).
  test.tournament = {config.tournament.name, s.kind, db::redact_urls_in_text(config.source_text),
                     seed, ""};
  if (config.sprt.enabled && config.engines.size() == 2) {
    const auto& p = config.sprt;
    test.sprt = db::SprtSettings{p.elo0, p.elo1, p.alpha, p.beta, stats::model_name(p.model)};
  }
  test.priority = s.priority;
  test.submitter = s.submitter;
  test.format = s.format;
  test.definition = db::redact_urls_in_text(s.definition);
  test.source_path = s.source_path;
  test.sources = sources;
  try {
    const db::Tournament t = store->test_queue().submit_test(test);
    // Its units of work, from the schedule (a pure function of the config and the seed): the
    // workers find them there rather than all recording them at once when they start.
    store->work().add_pairs(t.id, pair_slots(Schedule(config, t.seed, 0)));
    std::cout << "Submitted test '" << t.name << "' (id " << t.id << ", priority " << s.priority
              << ") to " << store->path() << "\n";
    for (const auto& r : sources)
      std::cout << "  " << r.name << ": " << r.repo << " at " << r.commit.substr(0, 12) << " "
                << r.subject << (r.bench ? " (bench " + std::to_string(*r.bench) + ")" : "")
                << "\n";
    std::cout << "Play it with: knightly work --db " << store->path() << "\n";
  } catch (const db::StoreException& e) {
    if (e.kind() == db::ErrorKind::Conflict)
      return fail("a test or tournament named '" + config.tournament.name + "' is in " +
                      store->path() + " already (give the test another name)",
                  "submit");
    return fail(e.what(), "submit");
  }
  return ExitOk;
}

// The options that say how a test is queued, not what it is: `knightly sprt` takes them before
// its schema's rows (cmd_run.cpp), and `knightly submit CONFIG.toml` with --db and --cache.
struct QueueOption {
  std::string_view usage;
  std::string_view help;
};
constexpr QueueOption kQueueOptions[] = {
    {"--submit", "Queue the test for `knightly work` instead of playing it; returns at once."},
    {"--priority N", "The queue plays a higher priority first (-1000000 to 1000000). Default: 0."},
    {"--submitter NAME", "Who submitted the test. Default: $KNIGHTLY_SUBMITTER, else $USER."},
};

std::string option_line(std::string_view usage, std::string_view help) {
  std::string head = "  " + std::string(usage);
  head += head.size() < 30 ? std::string(30 - head.size(), ' ') : "  ";
  return head + std::string(help) + "\n";
}

}  // namespace

std::string queue_option_lines() {
  std::string out;
  for (const auto& o : kQueueOptions) out += option_line(o.usage, o.help);
  return out;
}

std::string submit_options() {
  std::string out;
  for (const auto& o : kQueueOptions)
    if (o.usage != "--submit") out += option_line(o.usage, o.help);
  out += option_line("--db PATH|URL",
                     "The queue's database. Default: the config's, else knightly.db.");
  out += option_line("--cache DIR",
                     "Where the git mirrors that resolve each ref go. Default: $KNIGHTLY_CACHE, "
                     "else ~/.cache/knightly.");
  return out +
         "\nWith --new SPEC --base SPEC it takes every option of knightly sprt (knightly help "
         "sprt):\nthe same as knightly sprt ... --submit. Each engine's ref is resolved to a "
         "commit at once.\n";
}

int submit_sprt(const SprtCommand& command, const std::vector<std::string>& words) {
  Submission s;
  s.config = command.config;
  s.kind = db::TournamentKind::Sprt;
  s.format = "sprt";
  s.definition = command_text(definition_words(words));
  s.priority = command.priority;
  s.submitter = command.submitter.empty() ? default_submitter() : command.submitter;
  s.cache = command.options.source_cache;
  // What the workers will parse: the definition's own config (absolute paths and all), so the
  // tournament's text and name are theirs.
  auto again = split_words(s.definition);
  if (!again) return fail(again.error(), "submit");
  Args args(std::move(*again));
  auto reparsed = parse_sprt_command(args);
  if (!reparsed) return fail(reparsed.error(), "submit");
  s.config = reparsed->config;
  s.config.output.database = command.config.output.database;
  return submit(s);
}

int cmd_submit(Args& args) {
  if (args.empty())
    return fail(
        "what? knightly submit CONFIG.toml [--db URL] [--priority N], or knightly submit "
        "--new SPEC --base SPEC ... (knightly sprt's options)",
        "submit");
  if (!args.peek().starts_with("-")) {
    // A TOML config.
    const std::string path = args.take();
    Submission s;
    std::string db;
    s.submitter = default_submitter();
    while (!args.empty()) {
      const std::string a = args.take();
      auto v = args.value(a);
      if (!v) return fail(v.error(), "submit");
      if (a == "--db") {
        db = *v;
      } else if (a == "--priority") {
        auto n = parse_int(a, *v, -1000000, 1000000);
        if (!n) return fail(n.error(), "submit");
        s.priority = int(*n);
      } else if (a == "--submitter") {
        s.submitter = *v;
      } else if (a == "--cache") {
        s.cache = *v;
      } else {
        return fail(
            "unknown option '" + a + "' (a config takes --db, --priority, --submitter, --cache)",
            "submit");
      }
    }
    auto config = load_config_file(path);
    if (!config) return fail(config.error().to_string(), "submit");
    s.config = std::move(*config);
    if (!db.empty()) s.config.output.database = db;
    s.kind = s.config.sprt.enabled ? db::TournamentKind::Sprt : db::TournamentKind::Run;
    s.format = "toml";
    s.definition = s.config.source_text;
    s.source_path = absolute(path);
    return submit(s);
  }
  // knightly sprt's words: knightly sprt ... --submit.
  std::vector<std::string> words = args.rest();
  words.push_back("--submit");
  Args sprt(words);
  return cmd_sprt(sprt);
}

}  // namespace knightly::runner

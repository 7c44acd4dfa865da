// knightly work: a long-running worker of the test queue (docs/regression-testing.md). It takes
// the open test that needs games most (the highest priority, then the fewest games), plays it
// as `knightly run` would (its engines built from source, its time control scaled to this
// machine), and takes the next when that one is decided. It exits after `knightly stop --all`
// or a signal (after its games in progress, as a run does), and with --until-empty when no test
// is open. A test whose engines cannot be built ends (decided "failed: ..."), not the worker.
#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "db/store/store.h"
#include "runner/cli/signals.h"
#include "runner/cli/sprt_command.h"
#include "runner/cli/subcommand.h"
#include "runner/cli/work_control.h"
#include "runner/config/config_toml.h"
#include "runner/config/engine_words.h"
#include "runner/match/time_control.h"
#include "runner/output/progress.h"
#include "runner/output/run_end.h"
#include "runner/output/run_style.h"
#include "runner/query/test_list.h"
#include "runner/run/run.h"

namespace knightly::runner {

std::expected<Config, std::string> queued_config(const db::QueuedTest& test) {
  if (test.format == "toml") {
    auto c = parse_config_toml(test.definition, test.source_path);
    if (!c) return std::unexpected(c.error().to_string());
    return std::move(*c);
  }
  if (test.format == "sprt") {
    auto words = split_words(test.definition);
    if (!words) return std::unexpected("the test's words: " + words.error());
    Args args(std::move(*words));
    auto command = parse_sprt_command(args);
    if (!command) return std::unexpected(command.error());
    return std::move(command->config);
  }
  return std::unexpected("a test of format '" + test.format + "' (this knightly reads toml, sprt)");
}

namespace {

using WorkClock = std::chrono::steady_clock;

struct WorkOptions {
  std::string db = "knightly.db";
  int concurrency = 1;
  RunOptions run;
  Presentation presentation;  // Knightly's own style: each test's progress and summary
  std::chrono::milliseconds poll{5000};
  bool until_empty = false;
};

using Applied = std::expected<void, std::string>;

// A number of seconds of at least 0.2, as milliseconds.
std::expected<std::chrono::milliseconds, std::string> seconds(const std::string& flag,
                                                              const std::string& text) {
  auto s = parse_double(flag, text);
  if (!s) return std::unexpected(s.error());
  if (!(*s >= 0.2)) return std::unexpected(flag + ": '" + text + "' is too short (at least 0.2 s)");
  return std::chrono::milliseconds(static_cast<std::int64_t>(*s * 1000 + 0.5));
}

// Every option of `knightly work`, one row each: `knightly help work` is written from these rows
// and the parser applies them.
struct WorkFlag {
  std::string_view flag;
  std::string_view value;  // what follows it; "" for a switch
  std::string_view help;
  Applied (*apply)(WorkOptions& w, const std::string& flag, const std::string& value);
};

constexpr WorkFlag kWorkFlags[] = {
    {"--db", "PATH|URL",
     "The queue's database: an SQLite file or postgresql://.... "
     "Default: knightly.db.",
     [](WorkOptions& w, const std::string&, const std::string& v) -> Applied {
       w.db = v;
       return {};
     }},
    {"--concurrency", "N", "Games this worker plays at once (1 to 1024). Default: 1.",
     [](WorkOptions& w, const std::string& f, const std::string& v) -> Applied {
       auto n = parse_int(f, v, 1, 1024);
       if (!n) return std::unexpected(n.error());
       w.concurrency = static_cast<int>(*n);
       return {};
     }},
    {"--cache", "DIR",
     "Where engines built from source are fetched and built, and engine programs' hashes "
     "remembered. Default: $KNIGHTLY_CACHE, else ~/.cache/knightly.",
     [](WorkOptions& w, const std::string&, const std::string& v) -> Applied {
       w.run.source_cache = v;
       return {};
     }},
    {"--until-empty", "", "Exit when no test is open, rather than wait for one.",
     [](WorkOptions& w, const std::string&, const std::string&) -> Applied {
       w.until_empty = true;
       return {};
     }},
    {"--poll", "SECONDS", "How often an idle worker looks for a test. Default: 5.",
     [](WorkOptions& w, const std::string& f, const std::string& v) -> Applied {
       auto ms = seconds(f, v);
       if (!ms) return std::unexpected(ms.error());
       w.poll = *ms;
       return {};
     }},
    {"--lease", "SECONDS",
     "How long a claimed pair stays this worker's without a heartbeat "
     "(at least 0.2). Default: 30.",
     [](WorkOptions& w, const std::string& f, const std::string& v) -> Applied {
       auto ms = seconds(f, v);
       if (!ms) return std::unexpected(ms.error());
       w.run.lease = *ms;
       return {};
     }},
    {"--on-stop", "finish|abandon",
     "What the worker does with its games in progress when a test is "
     "decided or stopped. Default: finish.",
     [](WorkOptions& w, const std::string& f, const std::string& v) -> Applied {
       if (v != "finish" && v != "abandon")
         return std::unexpected(f + ": '" + v + "' (finish or abandon)");
       w.run.on_stop = v == "finish" ? OnStop::Finish : OnStop::Abandon;
       return {};
     }},
    {"--log-dir", "DIR", "One log per engine: DIR/NAME.log and NAME.stderr.log.",
     [](WorkOptions& w, const std::string&, const std::string& v) -> Applied {
       w.run.log_dir = v;
       return {};
     }},
    {"--quiet", "", "No per-game lines, only each test's summary.",
     [](WorkOptions& w, const std::string&, const std::string&) -> Applied {
       w.presentation.quiet = true;
       return {};
     }},
};

std::expected<WorkOptions, std::string> parse_work_options(Args& args) {
  WorkOptions w;
  while (!args.empty()) {
    const std::string a = args.take();
    const WorkFlag* flag = nullptr;
    for (const auto& f : kWorkFlags)
      if (f.flag == a) flag = &f;
    if (!flag) return std::unexpected("unknown option '" + a + "' (knightly work --help)");
    std::string v;
    if (!flag->value.empty()) {
      auto value = args.value(a);
      if (!value) return std::unexpected(value.error());
      v = *value;
    }
    if (auto r = flag->apply(w, a, v); !r) return std::unexpected(r.error());
  }
  return w;
}

// Mirrors the worker's stop (a signal) and `knightly stop --all` into the run being played.
class StopWatch {
 public:
  StopWatch(StopToken& work, StopToken& run, const db::Store& store, std::int64_t epoch,
            std::chrono::milliseconds every)
      : thread_([this, &work, &run, &store, epoch, every] {
          auto next_look = WorkClock::now();
          while (!done_) {
            if (work.stopping()) {
              if (int sig = work.signal()) run.note_signal(sig);
              run.request(work.level());
            }
            if (WorkClock::now() >= next_look) {
              next_look = WorkClock::now() + every;
              try {
                if (store.test_queue().stop_epoch() != epoch) {
                  stop_all_ = true;
                  run.request(StopLevel::Drain);
                }
              } catch (...) {
                // The run reports its store's failures; this only looks (and no exception
                // leaves the thread).
              }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
          }
        }) {}
  ~StopWatch() {
    done_ = true;
    thread_.join();
  }
  bool stop_all() const { return stop_all_; }

 private:
  std::atomic<bool> done_{false};
  std::atomic<bool> stop_all_{false};
  std::thread thread_;
};

// What a run's other_work last found, shared by its game threads.
struct OtherWork {
  std::mutex mutex;
  WorkClock::time_point next_look;
  bool answer = false;
};

// Sleeps up to `period`, returning early when the worker is told to stop.
void idle(const StopToken& stop, std::chrono::milliseconds period) {
  const auto until = WorkClock::now() + period;
  while (!stop.stopping() && WorkClock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

int signal_exit(const StopToken& stop) {
  return stop.signal() == SIGTERM ? ExitTerminated : ExitInterrupted;
}

}  // namespace

int cmd_work(Args& args) {
  auto options = parse_work_options(args);
  if (!options) return fail(options.error(), "work");
  db::StoreOptions so;
  auto opened = db::Store::open(options->db, so);
  if (!opened) return fail(opened.error().message, "work");
  db::Store& store = *opened;
  StopToken stop;
  install_interrupt_handlers(stop);
  struct Uninstall {
    ~Uninstall() { uninstall_interrupt_handlers(); }
  } uninstall;

  std::int64_t epoch = 0;
  try {
    epoch = store.test_queue().stop_epoch();
  } catch (const db::StoreException& e) {
    return fail(e.what(), "work");
  }
  std::cout << "Worker for the tests in " << store.path() << " (concurrency "
            << options->concurrency << ")" << std::endl;
  // Tests this worker could not play (an engine missing here, a repository it cannot reach):
  // left to the others for a while.
  std::map<std::int64_t, WorkClock::time_point> skip;
  const auto skip_for = std::chrono::minutes(10);
  bool waiting_said = false;
  while (!stop.stopping()) {
    std::optional<db::QueuedTest> test;
    try {
      if (store.test_queue().stop_epoch() != epoch) {
        std::cout << "knightly stop --all: this worker stops." << std::endl;
        return ExitOk;
      }
      // In the store's order (priority, then fewest games), the first that has a pair to
      // give; a test whose every pair is in play only when no other wants a worker.
      for (auto& t : store.test_queue().open_tests()) {
        auto it = skip.find(t.tournament.id);
        if (it != skip.end() && WorkClock::now() < it->second) continue;
        if (!test || (!test->wants_workers() && t.wants_workers())) test = std::move(t);
        if (test->wants_workers()) break;
      }
    } catch (const db::StoreException& e) {
      return fail(e.what(), "work");
    }
    if (!test) {
      if (options->until_empty) {
        std::cout << "No open test: this worker stops (--until-empty)." << std::endl;
        return ExitOk;
      }
      if (!waiting_said) std::cout << "Waiting for a test..." << std::endl;
      waiting_said = true;
      idle(stop, options->poll);
      continue;
    }
    waiting_said = false;
    auto config = queued_config(*test);
    if (!config) {
      // What the queue holds does not make a test (a config no longer readable): it is over.
      const std::string why = "its config cannot be read: " + config.error();
      std::cerr << "knightly: work: test '" << test->tournament.name << "': " << why << "\n";
      try {
        store.work().finish_tournament(test->tournament.id, db::TournamentStatus::Finished,
                                       "failed: " + why);
      } catch (const db::StoreException& e) {
        return fail(e.what(), "work");
      }
      continue;
    }
    config->output.database = options->db;
    config->tournament.concurrency = options->concurrency;
    RunOptions run_options = options->run;
    run_options.kind = test->tournament.kind;
    // Every pair of this test in play elsewhere: go where a pair is free, rather than wait
    // for the last ones (looked up at most once a second).
    const std::int64_t current = test->tournament.id;
    auto other = std::make_shared<OtherWork>();
    run_options.other_work = [&store, &skip, current, other] {
      std::lock_guard lock(other->mutex);
      if (WorkClock::now() < other->next_look) return other->answer;
      other->next_look = WorkClock::now() + std::chrono::seconds(1);
      other->answer = false;
      try {
        for (const auto& t : store.test_queue().open_tests()) {
          auto it = skip.find(t.tournament.id);
          const bool skipped = it != skip.end() && WorkClock::now() < it->second;
          if (t.tournament.id != current && !skipped && t.wants_workers()) other->answer = true;
        }
      } catch (...) {
        // Looking failed: stay (the run reports its store's failures).
      }
      return other->answer;
    };
    std::cout << "Test '" << test->tournament.name << "' (id " << test->tournament.id
              << ", priority " << test->priority << ", " << test->games
              << " games so far, submitted by " << (test->submitter.empty() ? "?" : test->submitter)
              << ")" << std::endl;
    const bool two = config->engines.size() == 2;
    const auto style = make_run_style(options->presentation.style);
    Progress progress(std::cout, std::cerr, options->presentation.quiet,
                      two ? config->engines[0].name : "", two ? config->engines[1].name : "");
    Run run(*config, run_options, progress);
    RunSummary summary;
    bool stop_all = false;
    {
      StopWatch watch(stop, run.stop_token(), store, epoch,
                      std::clamp(run_options.lease / 4, std::chrono::milliseconds(100),
                                 std::chrono::milliseconds(2000)));
      summary = run.execute();
      stop_all = watch.stop_all();
    }
    print_final_report(std::cout, std::cerr, *config, *style, summary);
    if (stop.stopping()) return signal_exit(stop);
    if (stop_all) {
      std::cout << "knightly stop --all: this worker stops." << std::endl;
      return ExitOk;
    }
    if (summary.moved_on) {
      std::cout << "Test '" << test->tournament.name
                << "': every pair is in play elsewhere; on to another test." << std::endl;
      skip[test->tournament.id] = WorkClock::now() + std::chrono::seconds(30);
      continue;
    }
    if (summary.exit_code != ExitError) continue;  // decided (or finished elsewhere): the next
    if (summary.test_refused) {
      std::cout << "Test '" << test->tournament.name << "' failed; on to the next." << std::endl;
      continue;
    }
    if (summary.resumable && !summary.sources_unavailable)
      return ExitError;  // the database (or an output file) fails: nothing to go on with
    std::cout << "Test '" << test->tournament.name << "' cannot be played on this worker; "
              << "left to the others for " << skip_for.count() << " minutes." << std::endl;
    skip[test->tournament.id] = WorkClock::now() + skip_for;
  }
  return signal_exit(stop);
}

}  // namespace knightly::runner

namespace knightly::runner {

std::string work_options() {
  std::string out;
  for (const auto& f : kWorkFlags) {
    std::string head =
        "  " + std::string(f.flag) + (f.value.empty() ? "" : " " + std::string(f.value));
    head += head.size() < 30 ? std::string(30 - head.size(), ' ') : "  ";
    out += head + std::string(f.help) + "\n";
  }
  return out +
         "\nA test whose engines cannot be built ends (decided \"failed: ...\"), not the worker; "
         "knightly stop --all\nor a signal ends the worker after its games in progress.\n";
}

int stop_all_workers(db::Store& store) {
  try {
    store.test_queue().request_stop_all();
  } catch (const db::StoreException& e) {
    std::cerr << "knightly: stop: " << e.what() << "\n";
    return ExitError;
  }
  std::cout << "Stop requested for every worker of " << store.path()
            << " (knightly work): each finishes its games in progress and exits; the tests stay "
               "open for workers started later.\n";
  return ExitOk;
}

}  // namespace knightly::runner

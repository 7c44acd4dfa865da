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
#include "runner/cli/final_report.h"
#include "runner/cli/progress.h"
#include "runner/cli/signals.h"
#include "runner/cli/subcommand.h"
#include "runner/cli/test_list.h"
#include "runner/cli/work_control.h"
#include "runner/match/time_control.h"
#include "runner/run/run.h"

namespace knightly::runner {
namespace {

using WorkClock = std::chrono::steady_clock;

int fail(const std::string& message) {
  std::cerr << "knightly: work: " << message << "\n";
  return ExitError;
}

struct WorkOptions {
  std::string db = "knightly.db";
  int concurrency = 1;
  RunOptions run;
  std::chrono::milliseconds poll{5000};
  bool until_empty = false;
};

std::expected<WorkOptions, std::string> parse_work_options(Args& args) {
  WorkOptions w;
  w.run.style = OutputStyle::Knightly;
  while (!args.empty()) {
    const std::string a = args.take();
    if (a == "--quiet") {
      w.run.quiet = true;
      continue;
    }
    if (a == "--until-empty") {
      w.until_empty = true;
      continue;
    }
    auto v = args.value(a);
    if (!v) return std::unexpected(v.error());
    if (a == "--db") {
      w.db = *v;
    } else if (a == "--concurrency") {
      auto n = parse_int(a, *v, 1, 1024);
      if (!n) return std::unexpected(n.error());
      w.concurrency = int(*n);
    } else if (a == "--cache") {
      w.run.source_cache = *v;
    } else if (a == "--log-dir") {
      w.run.log_dir = *v;
    } else if (a == "--lease" || a == "--poll") {
      auto ms = parse_seconds(*v);
      if (!ms) return std::unexpected(a + ": " + ms.error());
      if (*ms < 200) return std::unexpected(a + ": '" + *v + "' is too short (at least 0.2 s)");
      (a == "--lease" ? w.run.lease : w.poll) = std::chrono::milliseconds(*ms);
    } else if (a == "--on-stop") {
      if (*v != "finish" && *v != "abandon")
        return std::unexpected(a + ": '" + *v + "' (finish or abandon)");
      w.run.on_stop = *v == "finish" ? OnStop::Finish : OnStop::Abandon;
    } else {
      return std::unexpected("unknown option '" + a + "'");
    }
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
                if (store.stop_epoch() != epoch) {
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
  if (!options) return fail(options.error());
  db::StoreOptions so;
  auto opened = db::Store::open(options->db, so);
  if (!opened) return fail(opened.error().message);
  db::Store& store = *opened;
  StopToken stop;
  install_interrupt_handlers(stop);
  struct Uninstall {
    ~Uninstall() { uninstall_interrupt_handlers(); }
  } uninstall;

  std::int64_t epoch = 0;
  try {
    epoch = store.stop_epoch();
  } catch (const db::StoreException& e) {
    return fail(e.what());
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
      if (store.stop_epoch() != epoch) {
        std::cout << "knightly stop --all: this worker stops." << std::endl;
        return ExitOk;
      }
      // In the store's order (priority, then fewest games), the first that has a pair to
      // give; a test whose every pair is in play only when no other wants a worker.
      for (auto& t : store.open_tests()) {
        auto it = skip.find(t.tournament.id);
        if (it != skip.end() && WorkClock::now() < it->second) continue;
        if (!test || (!test->wants_workers() && t.wants_workers())) test = std::move(t);
        if (test->wants_workers()) break;
      }
    } catch (const db::StoreException& e) {
      return fail(e.what());
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
        store.finish_tournament(test->tournament.id, db::TournamentStatus::Finished,
                                "failed: " + why);
      } catch (const db::StoreException& e) {
        return fail(e.what());
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
        for (const auto& t : store.open_tests()) {
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
    Progress progress(std::cout, std::cerr, run_options.quiet, two ? config->engines[0].name : "",
                      two ? config->engines[1].name : "");
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
    print_final_report(std::cout, std::cerr, *config, run_options, summary);
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

int stop_all_workers(db::Store& store) {
  try {
    store.request_stop_all();
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

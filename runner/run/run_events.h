#pragma once
// What a run's phases tell the user, and how the run fails: the observer and the -log file
// behind the run's one lock, and the first error (the summary's) with whether running the same
// command again may cure it. Every phase (the opener, the game threads, the heartbeat, the
// report) reports through one RunEvents; an error raises the run's StopToken, so the games in
// progress finish (or are abandoned, --on-stop abandon) and nothing new starts.
//
// The lock also guards what the game threads share (the pairs held here, the two-engine tally)
// and the condition a thread waits on for work: one lock, so that the order the observer sees
// events in is the order they happened.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

#include "runner/run/run_observer.h"
#include "runner/run/run_options.h"
#include "runner/run/run_outputs.h"
#include "runner/run/stop_token.h"

namespace knightly::runner {

// What went wrong decides whether running the same command again can help: a store or an
// output file that failed (locked, full, gone) may be fine later, and a run stopped by an
// engine fault without recover resumes; a bad config, book or engine program stays bad.
enum class Failure { Setup, Engine, EngineFault, Store, Output };

class RunEvents {
 public:
  RunEvents(RunObserver& observer, StopToken& stop, OnStop on_stop)
      : observer_(observer), stop_(stop), on_stop_(on_stop) {}
  RunEvents(const RunEvents&) = delete;
  RunEvents& operator=(const RunEvents&) = delete;

  // The run's one lock (see above) and whoever holds it may call the observer and the log.
  std::mutex& mutex() { return mutex_; }
  RunObserver& observer() { return observer_; }
  RunLog& log() { return log_; }

  // A line for the user, under the lock (not with it held).
  void message(const std::string& line);

  // An error: reported (the first one and up to ten more), logged, and the run stops.
  void fail(Failure kind, const std::string& message);
  void fail_locked(Failure kind, const std::string& message);  // with mutex() held

  // Stops the run (the level --on-stop asks for) and wakes the threads waiting for work.
  void stop();
  // A game thread waits for work to come back (or the run to stop) for at most `period`.
  void wait(std::chrono::milliseconds period);
  void wake() { work_cv_.notify_all(); }

  // Set by a store failure: later writes (a pair given back) would only wait out the same
  // lock or fill the same disk again; the lease runs out on its own, and a resumed run frees it.
  bool store_failed() const { return store_failed_; }
  // With mutex() held (or once the game threads are gone):
  bool failed() const { return failed_; }
  bool resumable() const { return failed_ && resumable_; }
  const std::string& first_error() const { return first_error_; }
  // "... and N more errors" when more than ten followed the first.
  void report_dropped();

 private:
  RunObserver& observer_;
  StopToken& stop_;
  OnStop on_stop_;
  RunLog log_;  // -log file=F: the runner's own lines
  std::mutex mutex_;
  std::condition_variable work_cv_;  // a pair was given back or the run is stopping
  std::atomic<bool> store_failed_{false};
  bool failed_ = false;
  bool resumable_ = true;
  int later_errors_ = 0;
  std::string first_error_;
};

}  // namespace knightly::runner

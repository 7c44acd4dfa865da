#include "runner/run/run_events.h"

namespace knightly::runner {

void RunEvents::message(const std::string& line) {
  std::lock_guard lock(mutex_);
  observer_.on_message(line);
}

void RunEvents::fail(Failure kind, const std::string& message) {
  std::lock_guard lock(mutex_);
  fail_locked(kind, message);
}

void RunEvents::fail_locked(Failure kind, const std::string& message) {
  if (kind == Failure::Setup || kind == Failure::Engine) resumable_ = false;
  if (kind == Failure::Store) store_failed_ = true;
  log_.line("Error: " + message);
  if (!failed_) {
    failed_ = true;
    first_error_ = message;
    observer_.on_error(message);
  } else if (later_errors_ < 10) {
    ++later_errors_;
    observer_.on_error(message);
  } else {
    ++later_errors_;
  }
  stop();
}

void RunEvents::stop() {
  stop_.request(on_stop_ == OnStop::Abandon ? StopLevel::Abandon : StopLevel::Drain);
  work_cv_.notify_all();
}

void RunEvents::wait(std::chrono::milliseconds period) {
  std::unique_lock lock(mutex_);
  work_cv_.wait_for(lock, period);
}

void RunEvents::report_dropped() {
  if (later_errors_ > 10)
    observer_.on_error("... and " + std::to_string(later_errors_ - 10) + " more errors");
}

}  // namespace knightly::runner

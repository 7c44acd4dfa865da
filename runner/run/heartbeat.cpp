#include "runner/run/heartbeat.h"

#include <algorithm>
#include <exception>

namespace knightly::runner {

Heartbeat::Heartbeat(db::Store& store, std::int64_t worker_id, std::chrono::milliseconds lease,
                     std::function<void()> on_beat,
                     std::function<void(const std::string&)> on_error)
    : store_(store),
      worker_id_(worker_id),
      lease_(lease),
      on_beat_(std::move(on_beat)),
      on_error_(std::move(on_error)) {
  thread_ = std::thread([this] { loop(); });
}

Heartbeat::~Heartbeat() {
  stop();
}

void Heartbeat::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::int64_t Heartbeat::beats() const {
  std::lock_guard lock(mutex_);
  return beats_;
}

void Heartbeat::loop() {
  const auto period = std::max(std::chrono::milliseconds(50), lease_ / 4);
  std::unique_lock lock(mutex_);
  while (!cv_.wait_for(lock, period, [&] { return stopping_; })) {
    lock.unlock();
    // No exception leaves the thread: a failed renewal stops the run through on_error.
    std::string error;
    try {
      store_.work().renew_leases(worker_id_, lease_);
      if (on_beat_) on_beat_();
    } catch (const std::exception& e) {
      error = std::string("renewing this worker's leases: ") + e.what();
    } catch (...) {
      error = "renewing this worker's leases: unknown error";
    }
    if (!error.empty()) {
      try {
        if (on_error_) on_error_(error);
      } catch (...) {
      }
      return;
    }
    lock.lock();
    ++beats_;
  }
}

}  // namespace knightly::runner

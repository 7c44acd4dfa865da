#include "runner/players/line_channel.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <limits>
#include <mutex>

namespace knightly::runner {
namespace {

constexpr std::size_t InitialBuffer = 64 * 1024;
constexpr std::size_t MaxLine = 1 << 20;  // longer lines are dropped

using Clock = std::chrono::steady_clock;

// Writing to an engine that has died must give EPIPE, not kill the runner. The disposition
// is process-wide, so it is set once; EngineProcess gives children the default back.
void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

timespec to_timespec(Clock::time_point t) {
  const auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  return {static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
}

// The signal that ends a blocking read at its deadline. Its handler does nothing: installed
// without SA_RESTART, its arrival makes the read return EINTR. glibc keeps the first real-time
// signals for itself (SIGRTMIN is already past them); nothing else in the runner uses these.
int deadline_signal() {
  return SIGRTMIN + 4;
}
extern "C" void on_deadline_signal(int) {}

// A read's deadline as a POSIX timer that signals the thread that owns it (SIGEV_THREAD_ID):
// one per thread, made on its first blocking read. The reader blocks in read(2) alone, without
// a poll(2) before it: one system call and one sleep per chunk the engine writes.
//
// The timer is armed for the earliest deadline it must cover and left armed: later reads with
// later deadlines (every `go` of a game, usually) cost no system call. When it fires before the
// reader's own deadline, the read returns EINTR and the timer is armed again for the deadline.
// After firing it repeats every 10 ms until armed again: a signal that came just before the
// read began cannot leave the read blocked (it is late by 10 ms at most).
class DeadlineTimer {
 public:
  ~DeadlineTimer() {
    if (state_ == State::Ready) ::timer_delete(id_);
  }

  // Makes sure a signal interrupts this thread by `deadline`. False when no timer can be made
  // here (the caller then polls before reading).
  bool cover(Clock::time_point deadline) {
    if (state_ == State::Untried) make();
    if (state_ != State::Ready) return false;
    if (armed_ <= deadline) return true;
    itimerspec spec{};
    spec.it_value = to_timespec(deadline);
    spec.it_interval = {0, 10'000'000};
    if (::timer_settime(id_, TIMER_ABSTIME, &spec, nullptr) != 0) return false;
    armed_ = deadline;
    return true;
  }

  // After an interrupted read at `now`: a timer that has fired is armed again by the next
  // cover() (its 10 ms repeats would otherwise go on).
  void interrupted(Clock::time_point now) {
    if (armed_ <= now) armed_ = Clock::time_point::max();
  }

  // After a read's deadline passed: no more signals.
  void disarm() {
    if (state_ != State::Ready || armed_ == Clock::time_point::max()) return;
    itimerspec off{};
    ::timer_settime(id_, 0, &off, nullptr);
    armed_ = Clock::time_point::max();
  }

 private:
  enum class State { Untried, Ready, Unavailable };

  void make() {
    state_ = State::Unavailable;
    static std::once_flag once;
    std::call_once(once, [] {
      struct sigaction sa {};
      sa.sa_handler = on_deadline_signal;
      ::sigemptyset(&sa.sa_mask);
      sa.sa_flags = 0;  // no SA_RESTART: the read must return
      ::sigaction(deadline_signal(), &sa, nullptr);
    });
    sigset_t set;
    ::sigemptyset(&set);
    ::sigaddset(&set, deadline_signal());
    if (::pthread_sigmask(SIG_UNBLOCK, &set, nullptr) != 0) return;
    sigevent ev{};
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = deadline_signal();
    ev._sigev_un._tid = ::gettid();  // glibc 2.36 has no sigev_notify_thread_id macro
    if (::timer_create(CLOCK_MONOTONIC, &ev, &id_) == 0) state_ = State::Ready;
  }

  State state_ = State::Untried;
  timer_t id_{};
  Clock::time_point armed_ = Clock::time_point::max();  // when it fires next; max = disarmed
};

thread_local DeadlineTimer deadline_timer;

}  // namespace

void disarm_read_deadline() noexcept {
  deadline_timer.disarm();
}

LineChannel::LineChannel(ChannelLog log) : buf_(InitialBuffer), log_(std::move(log)) {
  ignore_sigpipe();
  auto open_log = [](const std::string& path) {
    return path.empty() ? -1
                        : ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  };
  log_fd_ = open_log(log_.path);
  shared_fd_ = open_log(log_.shared_path);
}

LineChannel::~LineChannel() {
  if (log_fd_ >= 0) ::close(log_fd_);
  if (shared_fd_ >= 0) ::close(shared_fd_);
}

void LineChannel::attach(int read_fd, int write_fd, int pid) {
  detach();
  // Reads block (bounded by the thread's DeadlineTimer); writes stay non-blocking.
  const int flags = ::fcntl(read_fd, F_GETFL);
  if (flags >= 0 && (flags & O_NONBLOCK)) ::fcntl(read_fd, F_SETFL, flags & ~O_NONBLOCK);
  read_fd_ = read_fd;
  write_fd_ = write_fd;
  pid_ = pid;
}

void LineChannel::detach() {
  read_fd_ = write_fd_ = -1;
  rpos_ = rend_ = scan_ = 0;
  skip_line_ = false;
  eof_ = false;
  read_error_.clear();
}

void LineChannel::note(std::string_view tag, std::string_view text) {
  if (!logging()) return;
  own_.clear();
  shared_.clear();
  const std::string prefix = "[" + std::to_string(pid_) + "] " + std::string(tag) + " ";
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = std::min(text.find('\n', start), text.size());
    const std::size_t from = own_.size();
    own_ += prefix;
    own_.append(text.substr(start, end - start));
    own_ += '\n';
    if (shared_fd_ >= 0) {
      shared_ += log_.name;
      shared_ += ' ';
      shared_.append(own_, from);
    }
    start = end + 1;
  }
  if (log_fd_ >= 0) [[maybe_unused]]
    ssize_t n = ::write(log_fd_, own_.data(), own_.size());
  if (shared_fd_ >= 0) [[maybe_unused]]
    ssize_t n = ::write(shared_fd_, shared_.data(), shared_.size());
}

bool LineChannel::wait_ready(int fd, short events, Deadline deadline) {
  for (;;) {
    auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero()) return false;
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
    timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    pollfd p{fd, events, 0};
    int r = ::ppoll(&p, 1, &ts, nullptr);
    if (r > 0) return true;  // ready, or hung up / failed: the read or write says which
    if (r < 0 && errno != EINTR) return true;
  }
}

LineChannel::Fill LineChannel::fill() {
  if (rpos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + rpos_, rend_ - rpos_);
    rend_ -= rpos_;
    scan_ -= rpos_;
    rpos_ = 0;
  }
  if (rend_ == buf_.size()) {
    if (buf_.size() < MaxLine) {
      buf_.resize(buf_.size() * 2);
    } else {
      if (!skip_line_) {  // once per line, however long it goes on
        ++dropped_;
        note("ignored:", "(line longer than 1 MiB) " + std::string(buf_.data(), 80));
      }
      rpos_ = rend_ = scan_ = 0;
      skip_line_ = true;
    }
  }
  ssize_t n = ::read(read_fd_, buf_.data() + rend_, buf_.size() - rend_);
  if (n > 0) {
    rend_ += static_cast<std::size_t>(n);
    return Fill::Data;
  }
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return Fill::Interrupted;
  if (n < 0) read_error_ = std::strerror(errno);
  eof_ = true;
  return Fill::Eof;
}

bool LineChannel::read_more(Deadline deadline) {
  for (;;) {
    if (deadline <= Clock::now()) {
      deadline_timer.disarm();
      return false;
    }
    if (!deadline_timer.cover(deadline)) {  // no timer here: poll, then read
      if (!wait_ready(read_fd_, POLLIN, deadline)) return false;
      if (fill() != Fill::Interrupted) return true;
      continue;
    }
    if (fill() != Fill::Interrupted) return true;
    deadline_timer.interrupted(Clock::now());
  }
}

LineChannel::Wait LineChannel::next_line(std::string_view& line, Deadline deadline) {
  for (;;) {
    if (scan_ < rend_) {
      const char* base = buf_.data();
      const void* nl = std::memchr(base + scan_, '\n', rend_ - scan_);
      if (nl) {
        std::size_t end = static_cast<std::size_t>(static_cast<const char*>(nl) - base);
        std::size_t begin = rpos_;
        rpos_ = scan_ = end + 1;
        if (skip_line_) {
          skip_line_ = false;
          continue;
        }
        if (end > begin && base[end - 1] == '\r') --end;
        line = std::string_view(base + begin, end - begin);
        if (log_.io) note("<", line);
        return Wait::Line;
      }
      scan_ = rend_;
    }
    if (eof_ || read_fd_ < 0) {
      if (rpos_ < rend_ && !skip_line_) {  // a last line without '\n'
        line = std::string_view(buf_.data() + rpos_, rend_ - rpos_);
        rpos_ = scan_ = rend_;
        return Wait::Line;
      }
      return Wait::Eof;
    }
    if (!read_more(deadline)) return Wait::Timeout;
  }
}

LineChannel::Wait LineChannel::write(std::string_view text, Deadline deadline) {
  if (write_fd_ < 0 || eof_) return Wait::Eof;
  if (log_.io && !text.empty())
    note(">", text.substr(0, text.back() == '\n' ? text.size() - 1 : text.size()));
  while (!text.empty()) {
    ssize_t n = ::write(write_fd_, text.data(), text.size());
    if (n > 0) {
      text.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      if (!wait_ready(write_fd_, POLLOUT, deadline)) return Wait::Timeout;
      continue;
    }
    return Wait::Eof;  // EPIPE: the engine closed its stdin or exited
  }
  return Wait::Line;
}

}  // namespace knightly::runner

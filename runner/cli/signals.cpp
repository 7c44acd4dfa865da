#include "runner/cli/signals.h"

#include <unistd.h>

#include <atomic>
#include <csignal>

namespace knightly::runner {
namespace {

std::atomic<int> interrupts{0};
std::atomic<bool> stop_flag{false};

extern "C" void on_interrupt(int) {
  int n = interrupts.fetch_add(1) + 1;
  stop_flag.store(true);
  if (n == 1) {
    const char msg[] =
        "\nInterrupt: finishing the games in progress (press Ctrl-C again to abort them)\n";
    [[maybe_unused]] auto r = ::write(2, msg, sizeof msg - 1);
  } else {
    const char msg[] = "\nAborted: games in progress are discarded and replayed on resume\n";
    [[maybe_unused]] auto r = ::write(2, msg, sizeof msg - 1);
    ::_exit(130);
  }
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  // A dead engine's pipe must give EPIPE on write, not kill the runner.
  signal(SIGPIPE, SIG_IGN);
}

bool stop_requested() { return stop_flag.load(std::memory_order_relaxed); }
void request_stop() { stop_flag.store(true); }
void reset_interrupts() {
  interrupts.store(0);
  stop_flag.store(false);
}

}  // namespace knightly::runner

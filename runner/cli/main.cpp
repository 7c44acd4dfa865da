// knightly: tournaments and self-play matches for chess engines (runner/cli/subcommand.h holds
// the commands).
#include <iostream>
#include <string>
#include <vector>

#include "db/store/database_url.h"
#include "db/store/store_options.h"
#include "runner/cli/subcommand.h"
#include "runner/output/printable.h"

namespace {

// A writer that has waited a second for a database another process writes says so, rather
// than seeming to hang until the busy timeout's error.
void say_lock_wait(const std::string& path, std::chrono::milliseconds timeout) noexcept {
  try {
    const auto ms = timeout.count();
    std::cerr << "knightly: waiting for the write lock of " << knightly::runner::printable(path)
              << ", which another process holds (giving up after "
              << (ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms")
              << ")\n";
  } catch (...) {
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  // /proc/PID/cmdline shows the arguments to every process of the user, the engines this run
  // starts included: a database password given there is blanked out of them now, before any
  // engine exists (the copy above keeps it for the program).
  for (int i = 1; i < argc; ++i) knightly::db::blank_passwords(argv[i]);
  // Whatever a message quotes (a file, an engine, a name) reaches the terminal escaped.
  knightly::runner::install_printable_output();
  knightly::db::set_lock_wait_notice(&say_lock_wait);
  return knightly::runner::run_cli(words);
}

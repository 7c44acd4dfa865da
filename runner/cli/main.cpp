// knightly: tournaments and self-play matches for chess engines (runner/cli/subcommand.h holds
// the commands).
#include <string>
#include <vector>

#include "db/store/database_url.h"
#include "runner/cli/subcommand.h"
#include "runner/output/printable.h"

int main(int argc, char** argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  // /proc/PID/cmdline shows the arguments to every process of the user, the engines this run
  // starts included: a database password given there is blanked out of them now, before any
  // engine exists (the copy above keeps it for the program).
  for (int i = 1; i < argc; ++i) knightly::db::blank_passwords(argv[i]);
  // Whatever a message quotes (a file, an engine, a name) reaches the terminal escaped.
  knightly::runner::install_printable_output();
  return knightly::runner::run_cli(words);
}

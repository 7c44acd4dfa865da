#pragma once
// The `knightly` program's subcommands: one table of name, function and usage. main() looks a
// command up here, and the usage text is written from the same table, so a command is added by
// one line (its entry) beside the file that implements it.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runner/output/args.h"

namespace knightly::runner {

// Each implementation returns the process exit code (runner/run/run_options.h's ExitCode).
int cmd_run(Args& args);
int cmd_tune(Args& args);
int cmd_play(Args& args);
int cmd_sprt(Args& args);
int cmd_submit(Args& args);
int cmd_work(Args& args);
int cmd_stop(Args& args);
int cmd_query(Args& args);
int cmd_import(Args& args);
int cmd_export(Args& args);
int cmd_report(Args& args);
int cmd_serve(Args& args);

struct Subcommand {
  std::string_view name;
  int (*run)(Args& args);
  std::string_view usage;  // what follows "knightly NAME " (continuation lines indented)
  // The option lines of `knightly help NAME` / `NAME --help`, after the usage (run, play, sprt:
  // from the match schema; query: from its table of options); nullptr for none.
  std::string (*options)() = nullptr;
};

// Prints "knightly: [COMMAND: ]MESSAGE" on stderr and returns the usage-error exit code (2).
int fail(const std::string& message, std::string_view command = {});

// Every subcommand, in the order the usage lists them.
std::span<const Subcommand> subcommands();
// The entry named `name`; nullptr for none.
const Subcommand* find_subcommand(std::string_view name);
// The whole usage text (`knightly --help`): every entry's usage and the exit codes.
std::string usage_text();
// One entry's usage: "usage: knightly NAME ...", and its option lines when it has them.
std::string usage_of(const Subcommand& command);
// The version: CMake's project(VERSION).
std::string_view version();

// The program: `words` are the arguments after the program name. --help / help / -h print the
// usage (help NAME or NAME --help one entry's), --version / version the version; an unknown
// command is an error naming it. An exception leaving a command is reported, exit code 2.
int run_cli(const std::vector<std::string>& words);

}  // namespace knightly::runner

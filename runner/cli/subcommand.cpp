#include "runner/cli/subcommand.h"

#include <array>
#include <exception>
#include <iostream>

#include "runner/cli/sprt_command.h"
#include "runner/cli/work_control.h"
#include "runner/config/match_schema.h"
#include "runner/query/query.h"
#include "runner/run/run_options.h"

#ifndef KNIGHTLY_VERSION
#error "KNIGHTLY_VERSION comes from CMake's project(VERSION): see runner/cli/CMakeLists.txt"
#endif

namespace knightly::runner {

int fail(const std::string& message, std::string_view command) {
  std::cerr << "knightly: ";
  if (!command.empty()) std::cerr << command << ": ";
  std::cerr << message << "\n";
  return ExitError;
}
namespace {

constexpr std::array<Subcommand, 12> kSubcommands{{
    {"run", cmd_run,
     "CONFIG.toml [--db PATH|postgresql://...] [--pgn PATH] [--quiet] [--restart]\n"
     "    [--concurrency N] [--log-dir DIR] [--lease SECONDS] [--on-stop finish|abandon]",
     [] { return schema_help(CommandRun); }},
    {"tune", cmd_tune,
     "CONFIG.toml [options of run]   SPSA on an engine's options ([tune], docs/tuning.md)",
     [] { return schema_help(CommandRun); }},
    {"play", cmd_play,
     "-engine cmd=PATH|builtin=NAME [...] -engine ... [-rounds N -repeat] ...\n"
     "    (a cutechess-cli or fastchess command line: every option in docs/cli.md)",
     [] { return schema_help(CommandPlay); }},
    {"sprt", cmd_sprt,
     "--new SPEC --base SPEC [--elo0 0] [--elo1 5] [--alpha 0.05] [--beta 0.05]\n"
     "    [--tc TC | --depth N | --nodes N] [--book FILE] [--concurrency N]\n"
     "    [--db PATH] [--max-games N] [--seed N] [--random-plies N] [--name NAME]\n"
     "    [--reference-nps N] [--cache DIR] [--submit [--priority N]]",
     [] { return schema_help(CommandSprt) + queue_option_lines(); }},
    {"submit", cmd_submit,
     "CONFIG.toml | --new SPEC --base SPEC [sprt's options] [--db PATH|URL]\n"
     "    [--priority N] [--submitter NAME]   queue a test for `knightly work`",
     submit_options},
    {"work", cmd_work,
     "[--db PATH|URL] [--concurrency N] [--cache DIR] [--until-empty] [--quiet]\n"
     "    play the queued tests, the one that needs games most first",
     work_options},
    {"stop", cmd_stop,
     "NAME | --all [--db PATH]   every worker of NAME (--all: every `knightly work`)\n"
     "    finishes its game and exits (NAME: exit 3, and the same run command resumes it;\n"
     "    --all: exit 0)"},
    {"query", cmd_query,
     "tournaments|standings|games|h2h|engines|ratings|terminations|health|sprt|workers|tests\n"
     "    |tune [NAME] [--db PATH] [--format table|csv|json] [filters]\n"
     "    (knightly query KIND --help: what KIND shows and the filters it takes)",
     query_options},
    {"import", cmd_import, "FILE.pgn [--tournament NAME] [--db PATH]"},
    {"export", cmd_export, "[--db PATH] [--tournament NAME]"},
    {"report", cmd_report,
     "-o FILE.html [--db PATH] [--tournament NAME ...] [--games N] [--title T]\n"
     "    [--move-games N]   (move statistics over the newest N games; 0 = all; default 2000)"},
    {"serve", cmd_serve,
     "[--db PATH] [--bind 127.0.0.1:8080] [--tournament NAME ...] [--title T]\n"
     "    [--allow-host NAME ...] [--cache-mb 32]\n"
     "    [--threads N]   (threads answering requests; default 2)"},
}};

bool is_help(std::string_view word) {
  return word == "-h" || word == "--help" || word == "help";
}

}  // namespace

std::span<const Subcommand> subcommands() {
  return kSubcommands;
}

const Subcommand* find_subcommand(std::string_view name) {
  for (const Subcommand& c : kSubcommands)
    if (c.name == name) return &c;
  return nullptr;
}

std::string usage_of(const Subcommand& command) {
  std::string text =
      "usage: knightly " + std::string(command.name) + " " + std::string(command.usage) + "\n";
  if (command.options) text += "\noptions:\n" + command.options();
  return text;
}

std::string usage_text() {
  std::string text = "knightly " + std::string(version()) +
                     ": chess engine tournaments and matches, stored in SQLite or PostgreSQL\n"
                     "\nusage:\n";
  for (const Subcommand& c : kSubcommands) {
    text += "  knightly " + std::string(c.name) + " ";
    for (char ch : c.usage) text += ch == '\n' ? std::string("\n    ") : std::string(1, ch);
    text += "\n";
  }
  text +=
      "  knightly help [COMMAND] | --version\n"
      "\n"
      "exit codes: 0 done (sprt: H1 accepted), 1 sprt: H0 accepted, 2 error,\n"
      "            3 sprt: undecided at max games, or stopped by knightly stop,\n"
      "            130 interrupted (SIGINT), 143 terminated;\n"
      "            play exits 0 whatever its SPRT decided, as cutechess-cli and fastchess do\n"
      "See README.md and docs/ for the details.\n";
  return text;
}

std::string_view version() {
  return KNIGHTLY_VERSION;
}

int run_cli(const std::vector<std::string>& words) {
  if (words.empty()) {
    std::cerr << usage_text();
    return ExitError;
  }
  const std::string& word = words[0];
  if (is_help(word)) {
    if (words.size() < 2) {
      std::cout << usage_text();
      return ExitOk;
    }
    const Subcommand* c = find_subcommand(words[1]);
    if (!c) {
      std::cerr << "knightly: help: unknown command '" << words[1] << "'\n\n" << usage_text();
      return ExitError;
    }
    std::cout << usage_of(*c);
    return ExitOk;
  }
  if (word == "--version" || word == "version") {
    std::cout << "knightly " << version() << "\n";
    return ExitOk;
  }
  const Subcommand* c = find_subcommand(word);
  if (!c) {
    std::cerr << "knightly: unknown command '" << word << "'\n\n" << usage_text();
    return ExitError;
  }
  if (words.size() == 2 && (words[1] == "--help" || words[1] == "-h")) {
    std::cout << usage_of(*c);
    return ExitOk;
  }
  Args args({words.begin() + 1, words.end()});
  try {
    return c->run(args);
  } catch (const std::exception& e) {
    std::cerr << "knightly: " << e.what() << "\n";
    return ExitError;
  }
}

}  // namespace knightly::runner

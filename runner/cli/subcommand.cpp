#include "runner/cli/subcommand.h"

#include <array>
#include <exception>
#include <iostream>

#include "runner/run/run_options.h"

#ifndef KNIGHTLY_VERSION
#error "KNIGHTLY_VERSION comes from CMake's project(VERSION): see runner/cli/CMakeLists.txt"
#endif

namespace knightly::runner {
namespace {

constexpr std::array<Subcommand, 9> kSubcommands{{
    {"run", cmd_run,
     "CONFIG.toml [--db PATH|postgresql://...] [--pgn PATH] [--quiet] [--restart]\n"
     "    [--concurrency N] [--log-dir DIR] [--lease SECONDS] [--on-stop finish|abandon]"},
    {"play", cmd_play,
     "-engine cmd=PATH|builtin=NAME [...] -engine ... [-rounds N -repeat] ...\n"
     "    (a cutechess-cli or fastchess command line: every option in docs/cli.md)"},
    {"sprt", cmd_sprt,
     "--new SPEC --base SPEC [--elo0 0] [--elo1 5] [--alpha 0.05] [--beta 0.05]\n"
     "    [--tc TC | --depth N | --nodes N] [--book FILE] [--concurrency N]\n"
     "    [--db PATH] [--max-games N] [--seed N] [--random-plies N] [--name NAME]"},
    {"stop", cmd_stop,
     "NAME [--db PATH]   every worker of NAME finishes its game and exits 3 (resumable)"},
    {"query", cmd_query,
     "tournaments|standings|games|h2h|engines|ratings|terminations|sprt|workers\n"
     "    [--db PATH] [--format table|csv|json] [filters]"},
    {"import", cmd_import, "FILE.pgn [--tournament NAME] [--db PATH]"},
    {"export", cmd_export, "[--db PATH] [--tournament NAME]"},
    {"report", cmd_report,
     "-o FILE.html [--db PATH] [--tournament NAME ...] [--games N] [--title T]"},
    {"serve", cmd_serve,
     "[--db PATH] [--bind 127.0.0.1:8080] [--tournament NAME ...] [--title T]\n"
     "    [--allow-host NAME ...] [--cache-mb 32] [--threads N]"},
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
  return "usage: knightly " + std::string(command.name) + " " + std::string(command.usage) + "\n";
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
      "            130 interrupted (SIGINT), 143 terminated\n"
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

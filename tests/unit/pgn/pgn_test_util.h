#pragma once
// Shared by the PGN suites: file reading, a scratch directory, and running pgn-extract as a
// real subprocess (posix_spawn, no shell) to check our output with an independent tool.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "tests/test_data.h"

extern char** environ;

namespace knightly::test {

inline constexpr const char* PgnExtract = "/usr/games/pgn-extract";

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

// A fresh directory under the system temp dir, removed when the object dies.
class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "knightly-pgn-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs argv[0] directly (no shell) with stdout and stderr captured through files in `dir`.
inline ProcessResult run_process(const std::vector<std::string>& argv, const ScratchDir& dir) {
  const std::string out_path = dir.file("stdout.txt");
  const std::string err_path = dir.file("stderr.txt");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("posix_spawn " + argv[0] + " failed");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  ProcessResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

// pgn-extract's own reading of a file: one vector of UCI moves per game it accepted, and what
// it reported on stderr. Games with no moves are left out (it drops some of them itself).
struct ExtractResult {
  std::vector<std::vector<std::string>> games;
  std::string errors;
};

inline ExtractResult pgn_extract_uci(const std::string& pgn_path, const ScratchDir& dir) {
  const std::string uci_path = dir.file("extract.uci");
  ProcessResult p = run_process({PgnExtract, "-s", "-Wuci", "--notags", "--nocomments", "-w100000",
                                 "-o" + uci_path, pgn_path},
                                dir);
  ExtractResult r;
  r.errors = p.err;
  std::istringstream in(read_file(uci_path));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string> moves;
    std::string w;
    // It writes promotions as "c7c8Q"; UCI (and to_uci) use lower case.
    while (words >> w) {
      for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      moves.push_back(w);
    }
    if (!moves.empty()) moves.pop_back();  // the result token
    if (!moves.empty()) r.games.push_back(moves);
  }
  return r;
}

// pgn-extract's check of a file: stderr is empty when every game is valid and every result
// token matches its Result tag.
inline std::string pgn_extract_errors(const std::string& pgn_path, const ScratchDir& dir) {
  ProcessResult p = run_process({PgnExtract, "-s", "-r", "--nobadresults", pgn_path}, dir);
  if (p.exit_code != 0) p.err += "\nexit code " + std::to_string(p.exit_code);
  return p.err;
}

// The one game of a read that must have no errors; fails the test otherwise.
inline chess::PgnGame only_game(const chess::PgnReadResult& r) {
  std::string errors;
  for (const auto& e : r.errors) errors += chess::to_string(e) + "\n";
  INFO(errors);
  REQUIRE(r.errors.empty());
  REQUIRE(r.games.size() == 1);
  return r.games[0];
}

inline std::vector<std::string> sans(const chess::PgnGame& g) {
  std::vector<std::string> out;
  for (const auto& m : g.moves) out.push_back(m.san);
  return out;
}

inline std::vector<std::string> uci_moves(const chess::PgnGame& g) {
  std::vector<std::string> out;
  for (const auto& m : g.moves) out.push_back(chess::to_uci(m.move));
  return out;
}

}  // namespace knightly::test

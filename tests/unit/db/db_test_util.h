#pragma once
// Helpers for the store tests: synthetic games, file snapshots (TempDir is tests/support's).
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "db/records/game_record.h"
#include "db/store/migrations.h"
#include "db/store/store.h"
#include "tests/support/process.h"

namespace knightly::test {

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct FileSnapshot {
  std::string bytes;
  std::int64_t mtime_ns = 0;
  std::int64_t size = 0;
  bool operator==(const FileSnapshot&) const = default;
};

inline FileSnapshot snapshot(const std::string& path) {
  struct stat st {};
  ::stat(path.c_str(), &st);
  return {read_bytes(path),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
          static_cast<std::int64_t>(st.st_size)};
}

// A game with `plies` moves; the values depend on the identity so round trips can tell
// games apart. The first two moves are book moves.
inline GameRecord synthetic_game(int index, int plies, const std::string& white = "Alpha",
                                 const std::string& black = "Beta",
                                 Result result = Result::WhiteWins) {
  GameRecord g;
  g.id = {index / 4, (index % 4) / 2, index % 2, index};
  g.white = white;
  g.black = black;
  g.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  g.opening_source = std::string("synthetic.epd:").append(std::to_string(index));
  g.result = result;
  g.termination = result == Result::Draw ? Termination::Repetition : Termination::Checkmate;
  g.reason = result == Result::Draw ? "Draw by 3-fold repetition" : "White mates";
  g.start_time = "2026-11-21T10:00:00Z";
  g.duration_ms = 1000 + index;
  g.time_control = "10+0.1";
  g.pgn = "[Event \"synthetic\"]\n\n1. e4 e5 *\n";
  static const char* kFiles = "abcdefgh";
  for (int p = 0; p < plies; ++p) {
    MoveRecord m;
    m.uci = std::string(1, kFiles[p % 8]) + "2" + std::string(1, kFiles[(p + index) % 8]) + "4";
    m.san = std::string("N").append(std::to_string(p));
    m.book = p < 2;
    if (!m.book) {
      if (p % 7 == 0)
        m.eval.mate = (p % 2) ? -3 : 5;
      else
        m.eval.score_cp = (p * 13 + index) % 400 - 200;
      m.eval.depth = 1 + p % 20;
      m.eval.seldepth = 2 + p % 25;
      m.eval.nodes =
          1000ull * static_cast<std::uint64_t>(p + 1) + static_cast<std::uint64_t>(index);
      m.time_ms = 10 + p;
      m.clock_left_ms = p % 5 == 0 ? -1 : 60000 - 100 * p;
    }
    g.moves.push_back(m);
  }
  return g;
}

// `processes` processes, released at the same instant through a pipe, each open `target` (a
// path or a PostgreSQL URL: it may not exist yet) and add an engine of their own ("E<i>").
// Returns each one's exit status: 0, or 3 to 6 for what failed (printed on stderr), or -1
// when it did not exit normally.
inline std::vector<int> open_from_many_processes_at_once(const std::string& target,
                                                         int processes = 8) {
  int go[2];
  if (::pipe(go) != 0) return std::vector<int>(std::size_t(processes), -1);
  std::vector<pid_t> children;
  for (int i = 0; i < processes; ++i) {
    const pid_t pid = ::fork();
    if (pid < 0) break;
    if (pid == 0) {
      ::close(go[1]);
      char c;
      if (::read(go[0], &c, 1) != 0) _exit(3);
      auto store = db::Store::open(target);
      if (!store) {
        std::fprintf(stderr, "%s\n", store.error().message.c_str());
        _exit(4);
      }
      try {
        store->catalog().upsert_engine({"E" + std::to_string(i), "", "", "", "", "", true});
      } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        _exit(5);
      }
      _exit(store->schema_version() == db::latest_schema_version() ? 0 : 6);
    }
    children.push_back(pid);
  }
  ::close(go[0]);
  ::close(go[1]);  // all start at once
  std::vector<int> statuses;
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    statuses.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  statuses.resize(std::size_t(processes), -1);  // a fork that failed counts as a failure
  return statuses;
}

}  // namespace knightly::test

// knightly-bench-db: inserts synthetic games (one transaction each, as the runner does)
// through the real Store, then exports them all by streaming, and reports games/s and
// memory. Run by scripts/bench-db.
//
//   knightly-bench-db [--games N] [--plies N] [--db PATH] [--sync full|normal]
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "bench_games.h"
#include "db/store/database_url.h"
#include "db/store/store.h"

namespace {

using knightly::GameRecord;
using knightly::MoveRecord;
using knightly::Result;
using knightly::Termination;
using knightly::bench::fill_game;

long current_rss_kb() {
  long pages_total = 0, pages_resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages_total, &pages_resident) != 2) pages_resident = 0;
    std::fclose(f);
  }
  return pages_resident * (sysconf(_SC_PAGESIZE) / 1024);
}

long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
  int games = 100000;
  int plies = 60;
  std::string path = (std::filesystem::temp_directory_path() / "knightly-bench.db").string();
  bool sync_full = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--games" && has_value)
      games = std::atoi(argv[++i]);
    else if (a == "--plies" && has_value)
      plies = std::atoi(argv[++i]);
    else if (a == "--db" && has_value)
      path = argv[++i];
    else if (a == "--sync" && has_value)
      sync_full = std::strcmp(argv[++i], "normal") != 0;
    else {
      std::fprintf(
          stderr,
          "usage: knightly-bench-db [--games N] [--plies N] [--db PATH] [--sync full|normal]\n");
      return 2;
    }
  }
  if (!knightly::db::is_postgres_url(path))
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);

  knightly::db::StoreOptions options;
  options.sync_every_commit = sync_full;
  auto opened = knightly::db::Store::open(path, options);
  if (!opened) {
    std::fprintf(stderr, "%s\n", opened.error().message.c_str());
    return 2;
  }
  knightly::db::Store& store = *opened;
  std::printf("database: %s (synchronous=%s, one transaction per game)\n", path.c_str(),
              sync_full ? "FULL" : "NORMAL");
  std::printf("games: %d, plies per game: %d\n", games, plies);

  const auto t =
      store.catalog().create_tournament({"bench", knightly::db::TournamentKind::Run, "", 1, ""});
  const auto alpha =
      store.catalog().upsert_engine({"Alpha", "/bin/alpha", "Hash=16", "Alpha 1", "", "", false});
  const auto beta =
      store.catalog().upsert_engine({"Beta", "/bin/beta", "Hash=16", "Beta 1", "", "", false});

  // Ingest.
  GameRecord g;
  auto start = std::chrono::steady_clock::now();
  double cpu_start = cpu_seconds();
  for (int i = 0; i < games; ++i) {
    fill_game(g, i, plies, {i / 1000, (i % 1000) / 2, i % 2, i});
    store.games().insert_game(t.id, g, g.white == "Alpha" ? alpha : beta,
                              g.white == "Alpha" ? beta : alpha);
    if ((i + 1) % 10000 == 0 || i + 1 == games)
      std::printf("  insert %7d games: %6.1f s, RSS %ld KB\n", i + 1, seconds_since(start),
                  current_rss_kb());
  }
  const double insert_s = seconds_since(start);
  const double insert_cpu = cpu_seconds() - cpu_start;
  std::printf(
      "ingest: %d games in %.2f s = %.0f games/s (%.0f moves/s); CPU %.2f s = %.0f games per "
      "CPU-second\n",
      games, insert_s, games / insert_s, static_cast<double>(games) * plies / insert_s, insert_cpu,
      games / insert_cpu);
  std::fflush(stdout);

  // Export: stream every game with its moves in schedule order and build its movetext.
  std::int64_t exported = 0, bytes = 0, moves = 0;
  start = std::chrono::steady_clock::now();
  cpu_start = cpu_seconds();
  std::string text;
  store.queries().for_each_game({}, [&](const knightly::db::StoredGame& s) {
    text.clear();
    text += s.record.pgn;
    for (const auto& m : s.record.moves) {
      text += m.san;
      text += ' ';
    }
    bytes += static_cast<std::int64_t>(text.size());
    moves += static_cast<std::int64_t>(s.record.moves.size());
    ++exported;
    if (exported % 10000 == 0 || exported == games)
      std::printf("  export %7lld games: %6.1f s, RSS %ld KB\n", static_cast<long long>(exported),
                  seconds_since(start), current_rss_kb());
  });
  const double export_s = seconds_since(start);
  const double export_cpu = cpu_seconds() - cpu_start;
  std::printf(
      "export: %lld games (%lld moves, %.1f MB text) in %.2f s = %.0f games/s; CPU %.2f s = %.0f "
      "games per CPU-second\n",
      static_cast<long long>(exported), static_cast<long long>(moves),
      static_cast<double>(bytes) / 1e6, export_s, static_cast<double>(exported) / export_s,
      export_cpu, static_cast<double>(exported) / export_cpu);
  std::printf("peak RSS (ru_maxrss): %ld KB\n", peak_rss_kb());
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);  // none for a postgresql:// URL
  if (!ec) std::printf("database size: %.1f MB\n", static_cast<double>(size) / 1e6);
  if (exported != games) {
    std::fprintf(stderr, "exported %lld of %d games\n", static_cast<long long>(exported), games);
    return 1;
  }
  return 0;
}

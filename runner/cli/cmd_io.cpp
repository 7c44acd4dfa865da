// knightly export / import: games out of and into the database as PGN.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <expected>
#include <iostream>

#include "db/store/store.h"
#include "runner/cli/subcommand.h"
#include "runner/import/pgn_import.h"
#include "runner/output/printable.h"
#include "runner/run/run_options.h"

namespace knightly::runner {
int cmd_export(Args& args) {
  std::string db = "knightly.db";
  db::GameFilter filter;
  while (!args.empty()) {
    std::string a = args.take();
    if (a != "--db" && a != "--tournament")
      return fail("export: unknown option '" + printable(a) + "'");
    auto v = args.value(a);
    if (!v) return fail("export: " + v.error());
    (a == "--db" ? db : filter.tournaments.emplace_back()) = *v;
  }
  db::StoreOptions so;
  so.mode = db::OpenMode::ReadOnly;
  auto store = db::Store::open(db, so);
  if (!store) return fail(store.error().message);
  try {
    for (const auto& name : filter.tournaments)
      if (!store->catalog().find_tournament(name))
        return fail("export: no tournament '" + printable(name) + "' in " +
                    printable(store->path()));
    store->queries().for_each_game(
        filter, [](const db::StoredGame& g) { std::cout << g.record.pgn << "\n"; }, false);
  } catch (const db::StoreException& e) {
    return fail(e.what());
  }
  std::cout.flush();
  return std::cout ? ExitOk : ExitError;
}

int cmd_import(Args& args) {
  std::string db = "knightly.db", file;
  ImportOptions options;
  while (!args.empty()) {
    std::string a = args.take();
    if (a == "--db" || a == "--tournament") {
      auto v = args.value(a);
      if (!v) return fail("import: " + v.error());
      (a == "--db" ? db : options.tournament) = *v;
    } else if (!a.empty() && a[0] == '-') {
      return fail("import: unknown option '" + printable(a) + "'");
    } else if (file.empty()) {
      file = a;
    } else {
      return fail("import: one PGN file at a time");
    }
  }
  if (file.empty()) return fail("import: no PGN file (knightly import FILE.pgn)");
  options.file = printable(file);
  options.progress = &std::cerr;
  // A file that cannot be read is said before a database is made for it.
  {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail("import: cannot read '" + options.file + "': " + std::strerror(errno));
    struct stat st {};
    const bool dir = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
    ::close(fd);
    if (dir)
      return fail("import: cannot read '" + options.file + "': it is a directory, not a PGN file");
  }

  // A 48 MB page cache: the content hash's index takes a random page per game, and past a
  // few hundred thousand games those pages were read again and again (docs/schema.md).
  // And a checkpoint every 128 MB of WAL rather than 16: the index pages a batch rewrites are
  // copied into the database once for several batches (1 GB: 12% faster).
  db::StoreOptions store_options;
  store_options.cache_bytes = std::int64_t{48} << 20;
  store_options.checkpoint_bytes = std::int64_t{128} << 20;
  // Checkpoints in the commit, as SQLite does: its one committing thread is the import, with
  // no other thread waiting for the store, and checkpoints on a thread beside it were slower
  // (300 MB: 7.3 -> 8.2 s, medians of six runs each, alternating).
  store_options.checkpoint_off_thread = false;
  auto store = db::Store::open(db, store_options);
  if (!store) return fail(store.error().message);
  try {
    auto report = import_pgn_file(*store, file, options);
    if (!report) return fail("import: " + report.error());
    // A partial import is an import: it says how many of how many, lists the games it
    // skipped (on stderr, above) and exits 0; it fails when no game could be read, or when
    // the rest of the input could not be (the games after that point are not there).
    for (const auto& m : report->messages) std::cerr << printable(m) << "\n";
    const int read = report->inserted + report->duplicates + report->unfinished + report->refused;
    std::cout << "Imported " << report->inserted << " of " << read << " games from " << options.file
              << " into tournament '" << report->tournament << "' (" << report->duplicates
              << " already present, " << report->unfinished << " unfinished, " << report->refused
              << " unreadable or cut off)\n";
    if (report->refused > 0 && report->inserted + report->duplicates == 0) {
      std::cerr << "knightly: import: no game of " << options.file << " could be imported\n";
      return 1;  // nothing imported (2 stays for errors)
    }
    if (report->cut_short) {
      std::cerr << "knightly: import: " << options.file
                << " was not read to its end: the games after the point named above are not "
                   "imported\n";
      return 1;
    }
    if (report->refused > 0)
      std::cerr << "knightly: import: " << report->refused << " of " << read << " game"
                << (read == 1 ? " was" : "s were") << " skipped (listed above)\n";
  } catch (const db::StoreException& e) {
    return fail(e.what());
  }
  return ExitOk;
}

}  // namespace knightly::runner

// Opening a Store: an SQLite file (checked before SQLite touches it) or a PostgreSQL URL,
// identified as Knightly's before anything is written, then migrated to the current schema.
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "db/store/database_url.h"
#include "db/store/migrations.h"
#include "db/store/pg_connection.h"
#include "db/store/sqlite_connection.h"
#include "db/store/store.h"
#include "db/store/store_parts.h"
#include "db/store/transaction.h"

namespace knightly::db {

namespace fs = std::filesystem;

namespace {

// Writable in the sense the user meant: the OS allows it and some write bit is set. Root
// passes access() for any file, but a file or directory chmod'ed read-only was made so on
// purpose, so it is refused for root too.
bool writable(const std::string& p) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) return false;
  if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0) return false;
  return ::access(p.c_str(), W_OK) == 0;
}

std::string parent_dir(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// Checks before SQLite touches anything, so the errors are precise and nothing is created.
std::optional<StoreError> check_file(const std::string& path, OpenMode mode) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  const bool exists = fs::exists(status);
  if (exists && fs::is_directory(status))
    return plain_error(ErrorKind::NotKnightly, path, "is a directory, not a knightly database");
  if (mode == OpenMode::ReadOnly) {
    if (!exists) return plain_error(ErrorKind::NotFound, path, "no such file");
    return std::nullopt;
  }
  const std::string dir = parent_dir(path);
  if (!fs::is_directory(dir, ec))
    return plain_error(ErrorKind::NotFound, path, "directory " + dir + " does not exist");
  if (exists && !writable(path))
    return plain_error(ErrorKind::ReadOnly, path, "file is read-only, cannot write to it");
  // SQLite creates the -wal and -shm files (and the database itself) next to it.
  if (!writable(dir))
    return plain_error(ErrorKind::ReadOnly, path,
                       "directory " + dir + " is read-only, cannot create or write the database");
  return std::nullopt;
}

// A process killed between writing its image and unlinking it leaves PATH.new-PID-N
// behind: removed by the next writer once that process is gone and the file a minute old
// (so that a process whose PID this one cannot see, in another PID namespace, is not raced).
void remove_stale_images(const std::string& path) {
  const std::string prefix = fs::path(path).filename().string() + ".new-";
  std::error_code ec;
  fs::directory_iterator it(parent_dir(path), ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    // PID-N: both numbers, nothing after them.
    const char* const end = name.data() + name.size();
    pid_t pid = 0;
    unsigned serial = 0;
    const auto p = std::from_chars(name.data() + prefix.size(), end, pid);
    if (p.ec != std::errc() || p.ptr == end || *p.ptr != '-' || pid <= 0) continue;
    const auto n = std::from_chars(p.ptr + 1, end, serial);
    if (n.ec != std::errc() || n.ptr != end) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        ::time(nullptr) - st.st_mtime < 60)
      continue;
    ::unlink(it->path().c_str());
  }
}

// A new database file is written whole from the image made at build time (the schema, WAL
// mode, Knightly's marks at the latest version) instead of being created statement by
// statement: about 1.5 ms of CPU less before a run's first game. It is written under a name
// of its own and linked into place, so that another process opening the same new path at
// once finds no file or the whole one. Best effort: a file that cannot be written so (or
// with a -wal or -shm already beside it, which SQLite would read into it) is left to SQLite
// to create, and gets the schema as an empty file does.
void create_from_image(const std::string& path) {
  remove_stale_images(path);
  for (const char* beside : {"", "-wal", "-shm"}) {
    struct stat st {};
    if (::lstat((path + beside).c_str(), &st) == 0 || errno != ENOENT) return;
  }
  static std::atomic<unsigned> serial{0};
  const std::string tmp =
      path + ".new-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const std::string image = sqlite_new_file_image();
  std::size_t done = 0;
  while (done < image.size()) {
    const ssize_t n = ::write(fd, image.data() + done, image.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += std::size_t(n);
  }
  const bool closed = ::close(fd) == 0;
  // EEXIST: another process made it first, and this one opens that.
  if (closed && done == image.size()) (void)::link(tmp.c_str(), path.c_str());
  ::unlink(tmp.c_str());
}

// A reader needs the -shm file next to a WAL database; in a directory it cannot write, with
// no writer around (none can create its -wal there either), SQLite reads the file as
// immutable instead. Returns the URI for that case, "" otherwise. Not with a -journal beside
// it: immutable, SQLite would read the pages a stopped writer left half-written.
std::string immutable_uri_if_needed(const std::string& path) {
  std::error_code ec;
  const std::string dir = parent_dir(path);
  if (writable(dir)) return "";  // (mode bits too, as for a writer: see writable)
  for (const char* beside : {"-wal", "-shm", "-journal"})
    if (fs::exists(path + beside, ec)) return "";
  std::string uri = "file:";
  for (char c : fs::absolute(path, ec).string()) {
    if (c == '%' || c == '?' || c == '#') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
      uri += buf;
    } else {
      uri += c;
    }
  }
  return uri + "?immutable=1";
}

// A process stopped in the middle of a write transaction in rollback-journal mode (a new file
// being switched to WAL) leaves a hot journal next to the file, which a read-only connection
// cannot roll back: SQLite answers SQLITE_READONLY_ROLLBACK to every read. Any writer rolls it
// back on its first read, restoring the last committed state, which is all a reader would have
// seen anyway: open the file once for writing to do that, when the user may write it.
std::optional<StoreError> roll_back_unfinished_write(const std::string& path, int busy_timeout_ms) {
  const std::string journal = path + "-journal";
  if (!writable(path) || !writable(parent_dir(path)))
    return plain_error(ErrorKind::ReadOnly, path,
                       "a process stopped in the middle of writing it and left " + journal +
                           ", which only a process allowed to write the database can roll "
                           "back: restore write access, then any knightly command reads it");
  try {
    Database writer(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, busy_timeout_ms);
    writer.exec("SELECT count(*) FROM sqlite_master", "rolling back " + journal);
  } catch (const StoreException& e) {
    return e.error();
  }
  return std::nullopt;
}

std::expected<std::unique_ptr<Store::Impl>, StoreError> open_sqlite_once(
    const std::string& path, const StoreOptions& options) {
  const bool memory = path == ":memory:";
  if (!memory)
    if (auto err = check_file(path, options.mode)) return std::unexpected(*err);
  const int flags = options.mode == OpenMode::ReadOnly ? SQLITE_OPEN_READONLY
                                                       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (options.mode == OpenMode::ReadWrite && !memory) create_from_image(path);
  try {
    const std::string uri = options.mode == OpenMode::ReadOnly && !memory
                                ? immutable_uri_if_needed(path)
                                : std::string();
    auto impl = std::make_unique<Store::Impl>(
        Database(path, flags | SQLITE_OPEN_NOMUTEX, options.busy_timeout_ms, uri), options);
    Database& db = impl->core.db;
    if (options.mode == OpenMode::ReadWrite && db.read_only())
      return std::unexpected(
          plain_error(ErrorKind::ReadOnly, path, "opened read-only by SQLite, cannot write to it"));
    // Only reads until the file is known to be ours (or empty): a foreign file stays untouched.
    const auto version = check_schema(db.connection().read_schema_identity(), path, Dialect::Sqlite,
                                      options.mode == OpenMode::ReadOnly);
    if (!version) return std::unexpected(version.error());
    db.exec("PRAGMA foreign_keys = ON", "enabling foreign keys");
    if (options.cache_bytes > 0)  // a negative size is KiB; a pragma takes no parameter
      db.exec("PRAGMA cache_size = -" + std::to_string(options.cache_bytes / 1024),
              "setting the page cache size");
    if (options.mode == OpenMode::ReadWrite) {
      // Switching a new file to WAL takes an exclusive lock; SQLite answers SQLITE_BUSY at once,
      // without its busy handler, while another process is creating the same file: retry.
      if (!memory)
        detail::with_retry(options.busy_timeout_ms, "switching to WAL mode",
                           [&] { db.exec("PRAGMA journal_mode = WAL", "switching to WAL mode"); });
      static_cast<SqliteConnection&>(db.connection())
          .set_synchronous_full(options.sync_every_commit);
      // Checkpoint every ~16 MB of WAL (options.checkpoint_bytes) rather than SQLite's 4 MB:
      // fewer fsyncs when games arrive fast. In pages of 4 KB (SQLite's default, which
      // knightly's files keep). On a thread of its own (sqlite_checkpointer.h).
      const std::int64_t pages =
          std::clamp<std::int64_t>(options.checkpoint_bytes / 4096, 1, 1 << 30);
      if (!memory && options.checkpoint_off_thread)
        impl->checkpointer = std::make_unique<SqliteCheckpointer>(
            static_cast<SqliteConnection&>(db.connection()).handle(), path, int(pages));
      else  // a pragma takes no parameter
        db.exec("PRAGMA wal_autocheckpoint = " + std::to_string(pages),
                "setting the checkpoint interval");
      if (*version < latest_schema_version()) {
        detail::with_retry(options.busy_timeout_ms, "upgrading the schema",
                           [&] { return apply_migrations(db); });
      } else {
        // Take the write lock once now, so a database held by another writer is reported at
        // open (after the busy timeout) rather than after the first game.
        detail::with_retry(options.busy_timeout_ms, "opening", [&] {
          Transaction probe(db);
          probe.commit();
        });
      }
      impl->core.version = latest_schema_version();
    } else {
      impl->core.version = *version;
    }
    return impl;
  } catch (const StoreException& e) {
    StoreError err = e.error();
    if (err.kind == ErrorKind::NotKnightly)
      err.message = "database " + path + ": not a knightly database (not an SQLite file)";
    return std::unexpected(err);
  }
}

std::expected<std::unique_ptr<Store::Impl>, StoreError> open_sqlite(const std::string& path,
                                                                    const StoreOptions& options) {
  auto opened = open_sqlite_once(path, options);
  if (opened || options.mode != OpenMode::ReadOnly ||
      opened.error().sqlite_code != SQLITE_READONLY_ROLLBACK)
    return opened;
  if (auto err = roll_back_unfinished_write(path, options.busy_timeout_ms))
    return std::unexpected(*err);
  return open_sqlite_once(path, options);
}

std::expected<std::unique_ptr<Store::Impl>, StoreError> open_postgres(const std::string& url,
                                                                      const StoreOptions& options) {
  try {
    PgSettings settings;
    settings.lock_timeout_ms = options.busy_timeout_ms;
    settings.read_only = options.mode == OpenMode::ReadOnly;
    settings.synchronous_commit = options.sync_every_commit;
    auto impl = std::make_unique<Store::Impl>(
        Database(std::make_unique<PgConnection>(url, settings)), options);
    Database& db = impl->core.db;
    const auto version = check_schema(db.connection().read_schema_identity(), db.path(),
                                      Dialect::Postgres, options.mode == OpenMode::ReadOnly);
    if (!version) return std::unexpected(version.error());
    if (options.mode == OpenMode::ReadWrite && *version < latest_schema_version())
      detail::with_retry(options.busy_timeout_ms, "upgrading the schema",
                         [&] { return apply_migrations(db); });
    impl->core.version = options.mode == OpenMode::ReadWrite ? latest_schema_version() : *version;
    return impl;
  } catch (const StoreException& e) {
    return std::unexpected(e.error());
  }
}

}  // namespace

std::expected<Store, StoreError> Store::open(const std::string& given,
                                             const StoreOptions& options) {
  // env:NAME and file:PATH keep the location (and a password in it) off the command line.
  const auto target = resolve_location(given);
  if (!target)
    return std::unexpected(plain_error(ErrorKind::NotFound, location_text(given), target.error()));
  auto impl =
      is_postgres_url(*target) ? open_postgres(*target, options) : open_sqlite(*target, options);
  if (!impl) return std::unexpected(impl.error());
  return Store(std::move(*impl));
}

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::~Store() = default;
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;

Catalog& Store::catalog() {
  return impl_->catalog;
}
const Catalog& Store::catalog() const {
  return impl_->catalog;
}
GameWrites& Store::games() {
  return impl_->games;
}
Work& Store::work() {
  return impl_->work;
}
const Work& Store::work() const {
  return impl_->work;
}
TestQueue& Store::test_queue() {
  return impl_->test_queue;
}
const TestQueue& Store::test_queue() const {
  return impl_->test_queue;
}
Tunes& Store::tunes() {
  return impl_->tunes;
}
const Tunes& Store::tunes() const {
  return impl_->tunes;
}
const Queries& Store::queries() const {
  return impl_->queries;
}

const std::string& Store::path() const {
  return impl_->core.db.path();
}

int Store::schema_version() const {
  return impl_->core.version;
}

int Store::background_checkpoints() const {
  return impl_->checkpointer ? impl_->checkpointer->checkpoints() : 0;
}

bool Store::busy() const {
  return !try_hold().owns_lock();
}

std::unique_lock<std::recursive_mutex> Store::try_hold() const {
  return std::unique_lock(impl_->core.mutex, std::try_to_lock);
}

bool Store::is_postgres() const {
  return impl_->core.db.dialect() == Dialect::Postgres;
}

std::string Store::integrity_check() const {
  std::lock_guard lock(impl_->core.mutex);
  std::string out;
  const auto add = [&](const std::string& line) {
    if (!out.empty()) out += '\n';
    out += line;
  };
  if (impl_->core.db.dialect() == Dialect::Sqlite) {
    Statement st(impl_->core.db, "PRAGMA integrity_check");
    while (st.step())
      if (st.text(0) != "ok") add(st.text(0));
  }
  // What no constraint states: every game has exactly its plies as moves, a game kept as its
  // PGN tags has lists to write the rest from, its latency figures are its moves', and a pair
  // marked done has all its games.
  Statement moves(impl_->core.db,
                  "SELECT count(*) FROM games g WHERE g.plies <> CASE "
                  "WHEN g.moves_uci IS NULL THEN "
                  "(SELECT count(*) FROM moves m WHERE m.game_id = g.id) "
                  "WHEN g.moves_uci = '' THEN 0 "
                  "ELSE length(g.moves_uci) - length(replace(g.moves_uci, ' ', '')) + 1 END "
                  "OR (g.moves_uci IS NOT NULL AND EXISTS "
                  "(SELECT 1 FROM moves m WHERE m.game_id = g.id))");
  if (moves.step() && moves.int64(0) > 0)
    add(std::to_string(moves.int64(0)) + " games whose moves are missing or extra");
  // A game kept as its PGN tags has its moves as lists to write the movetext from.
  Statement tags(impl_->core.db,
                 "SELECT count(*) FROM games WHERE pgn_tags IS NOT NULL AND "
                 "(moves_uci IS NULL OR moves_san IS NULL OR pgn <> '')");
  if (tags.step() && tags.int64(0) > 0)
    add(std::to_string(tags.int64(0)) +
        " games kept as PGN tags without their moves as lists, or with a PGN text besides");
  // Each game's latency figures (engine health reads them) are its moves' own.
  Statement latency(impl_->core.db,
                    "SELECT count(*) FROM games g WHERE g.moves_uci IS NULL AND "
                    "(g.white_latency_moves + g.black_latency_moves <> (SELECT count(*) FROM "
                    "moves m WHERE m.game_id = g.id AND m.latency_ms IS NOT NULL) OR "
                    "g.white_latency_sum_ms + g.black_latency_sum_ms <> (SELECT "
                    "coalesce(sum(m.latency_ms), 0) FROM moves m WHERE m.game_id = g.id))");
  if (latency.step() && latency.int64(0) > 0)
    add(std::to_string(latency.int64(0)) +
        " games whose latency figures are not their moves' (engine health reads them)");
  Statement pairs(impl_->core.db,
                  "SELECT count(*) FROM pairs p WHERE p.state = 'done' AND p.games <> "
                  "(SELECT count(*) FROM games g WHERE g.tournament_id = p.tournament_id "
                  "AND g.round = p.round AND g.pair = p.pair)");
  if (pairs.step() && pairs.int64(0) > 0)
    add(std::to_string(pairs.int64(0)) + " pairs marked done without all their games");
  return out.empty() ? "ok" : out;
}

}  // namespace knightly::db

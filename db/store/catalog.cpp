// The Store's catalog: tournaments and engine versions.
#include "db/store/catalog.h"

#include <sys/stat.h>

#include <bit>

#include "db/store/database_url.h"
#include "db/store/sha256.h"
#include "db/store/store_core.h"

namespace knightly::db {

namespace {

std::int64_t as_int64(std::uint64_t v) {
  return std::bit_cast<std::int64_t>(v);
}

}  // namespace

std::optional<Tournament> Catalog::find_tournament(std::string_view name) const {
  std::lock_guard lock(core_.mutex);
  Statement st(core_.db, std::string("SELECT ") + kTournamentColumns +
                             " FROM tournaments WHERE name = ? AND status <> 'restarted'");
  st.bind(1, name);
  if (!st.step()) return std::nullopt;
  return core_.read_tournament(st);
}

std::optional<Tournament> Catalog::tournament(std::int64_t id) const {
  std::lock_guard lock(core_.mutex);
  return core_.tournament(id);
}

std::int64_t insert_tournament(Database& db, const NewTournament& t) {
  Statement st(db,
               "INSERT INTO tournaments (name, kind, config_text, config_hash, seed, status, "
               "started_at) VALUES (?, ?, ?, ?, ?, 'running', ?)" +
                   std::string(returning_id(db.dialect())));
  // A config naming its database by URL keeps the URL, never its password.
  const std::string config = redact_urls_in_text(t.config_text);
  st.bind(1, t.name)
      .bind(2, kind_text(t.kind))
      .bind(3, config)
      .bind(4, sha256_hex(config))
      .bind(5, as_int64(t.seed))
      .bind(6, t.started_at.empty() ? utc_now_iso() : t.started_at);
  std::int64_t id = 0;
  try {
    id = st.inserted_id();
  } catch (const StoreException& e) {
    if (e.kind() != ErrorKind::Conflict) throw;
    StoreError err = e.error();
    err.message = "database " + db.path() + ": a tournament named '" + t.name +
                  "' already exists (resume it, or restart it)";
    throw StoreException(err);
  }
  return id;
}

Tournament Catalog::create_tournament(const NewTournament& t) {
  std::lock_guard lock(core_.mutex);
  const std::int64_t id = core_.write("creating tournament '" + t.name + "'",
                                      [&] { return insert_tournament(core_.db, t); });
  return *core_.tournament(id);
}

Tournament Catalog::restart_tournament(std::int64_t old_id, const NewTournament& t) {
  std::lock_guard lock(core_.mutex);
  const std::int64_t id = core_.write("restarting tournament '" + t.name + "'", [&] {
    Statement mark(core_.db,
                   "UPDATE tournaments SET status = 'restarted', "
                   "finished_at = COALESCE(finished_at, ?) WHERE id = ?");
    mark.bind(1, utc_now_iso()).bind(2, old_id).run();
    return insert_tournament(core_.db, t);
  });
  return *core_.tournament(id);
}

void Catalog::set_tournament_status(std::int64_t id, TournamentStatus status) {
  std::lock_guard lock(core_.mutex);
  core_.write("setting the status of tournament " + std::to_string(id), [&] {
    // Running again (a resume) also forgets a stop request and the old decision.
    Statement st(core_.db,
                 status == TournamentStatus::Running
                     ? "UPDATE tournaments SET status = ?, finished_at = ?, stop_requested = 0, "
                       "decision = NULL WHERE id = ?"
                     : "UPDATE tournaments SET status = ?, finished_at = ? WHERE id = ?");
    st.bind(1, status_text(status));
    if (status == TournamentStatus::Running)
      st.bind_null(2);
    else
      st.bind(2, utc_now_iso());
    st.bind(3, id).run();
  });
}

std::vector<TournamentSummary> Catalog::tournaments() const {
  std::lock_guard lock(core_.mutex);
  Statement st(core_.db,
               "SELECT t.id, t.name, t.kind, t.config_text, t.config_hash, t.seed, t.status, "
               "t.started_at, t.finished_at, "
               "(SELECT count(*) FROM games g WHERE g.tournament_id = t.id) "
               "FROM tournaments t ORDER BY t.id");
  std::vector<TournamentSummary> out;
  while (st.step()) out.push_back({core_.read_tournament(st), st.int64(9)});
  return out;
}

std::int64_t Catalog::upsert_engine(const EngineInfo& e) {
  std::lock_guard lock(core_.mutex);
  const std::string what = "registering engine " + e.name;
  const std::int64_t id = core_.write(what, [&] {
    Statement st(core_.db,
                 "INSERT INTO engines (name, command, options, uci_name, uci_author, "
                 "binary_sha256, builtin, first_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                 "ON CONFLICT (name, command, options, binary_sha256) DO UPDATE SET "
                 "uci_name = CASE WHEN engines.uci_name = '' THEN excluded.uci_name "
                 "ELSE engines.uci_name END, "
                 "uci_author = CASE WHEN engines.uci_author = '' THEN excluded.uci_author "
                 "ELSE engines.uci_author END "
                 "RETURNING id");
    st.bind(1, e.name)
        .bind(2, e.command)
        .bind(3, e.options)
        .bind(4, e.uci_name)
        .bind(5, e.uci_author)
        .bind(6, e.binary_sha256)
        .bind(7, e.builtin ? 1 : 0)
        .bind(8, utc_now_iso());
    if (!st.step())
      throw StoreException(describe_error(ErrorKind::Io, core_.db.path(), what, "no id returned"));
    const std::int64_t row = st.int64(0);
    st.run();  // finish the statement before the commit
    return row;
  });
  core_.engine_names[id] = e.name;
  return id;
}

std::optional<std::string> Catalog::binary_sha256(const std::string& path, const Hasher& hasher) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  const std::int64_t size = info.st_size;
  const std::int64_t mtime_ns =
      std::int64_t(info.st_mtim.tv_sec) * 1000000000 + std::int64_t(info.st_mtim.tv_nsec);
  std::lock_guard lock(core_.mutex);
  {
    Statement st(core_.db,
                 "SELECT sha256 FROM binary_hashes WHERE path = ? AND size = ? AND mtime_ns = ?");
    st.bind(1, path).bind(2, size).bind(3, mtime_ns);
    if (st.step()) return st.text(0);
  }
  auto hash = hasher ? hasher(path) : sha256_file(path);
  if (!hash || core_.options.mode == OpenMode::ReadOnly) return hash;
  core_.write("remembering the hash of " + path, [&] {
    Statement put(core_.db,
                  "INSERT INTO binary_hashes (path, size, mtime_ns, sha256) VALUES (?, ?, ?, ?) "
                  "ON CONFLICT (path) DO UPDATE SET size = excluded.size, "
                  "mtime_ns = excluded.mtime_ns, sha256 = excluded.sha256");
    put.bind(1, path).bind(2, size).bind(3, mtime_ns).bind(4, *hash);
    put.run();
  });
  return hash;
}

std::optional<std::int64_t> Catalog::find_engine(std::string_view name) const {
  std::lock_guard lock(core_.mutex);
  Statement st(core_.db, "SELECT max(id) FROM engines WHERE name = ?");
  st.bind(1, name);
  if (!st.step()) return std::nullopt;
  return st.opt_int64(0);
}

std::vector<EngineVersion> Catalog::engines() const {
  std::lock_guard lock(core_.mutex);
  Statement st(
      core_.db,
      "SELECT e.id, e.name, e.command, e.options, e.uci_name, e.uci_author, "
      "e.binary_sha256, e.builtin, e.first_seen, COALESCE(c.n, 0), COALESCE(c.last_at, '') "
      "FROM engines e LEFT JOIN ("
      "  SELECT eid, count(*) AS n, max(started_at) AS last_at FROM ("
      "    SELECT white_id AS eid, started_at FROM games"
      "    UNION ALL SELECT black_id, started_at FROM games) AS played GROUP BY eid"
      ") c ON c.eid = e.id ORDER BY e.name, e.id");
  std::vector<EngineVersion> out;
  while (st.step()) {
    EngineVersion v;
    v.id = st.int64(0);
    v.info.name = st.text(1);
    v.info.command = st.text(2);
    v.info.options = st.text(3);
    v.info.uci_name = st.text(4);
    v.info.uci_author = st.text(5);
    v.info.binary_sha256 = st.text(6);
    v.info.builtin = st.int64(7) != 0;
    v.first_seen = st.text(8);
    v.games = st.int64(9);
    v.last_played = st.text(10);
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace knightly::db

// The Store's test queue: tests submitted for `knightly work`, the commits of engines built from
// their source, the speed of each worker (docs/regression-testing.md, docs/schema.md).
#include "db/store/test_queue.h"

#include "db/store/store_core.h"

namespace knightly::db {

namespace {

constexpr const char* kSourceColumns =
    "engine, name, repo, ref, commit_sha, subject, bench, resolved_at";

SourceCommitRecord read_source(const Statement& st) {
  SourceCommitRecord r;
  r.engine = st.int32(0);
  r.name = st.text(1);
  r.repo = st.text(2);
  r.ref = st.text(3);
  r.commit = st.text(4);
  r.subject = st.text(5);
  r.bench = st.opt_int64(6);
  r.resolved_at = st.text(7);
  return r;
}

void insert_source(Database& db, std::int64_t tournament_id, const SourceCommitRecord& r) {
  Statement st(db,
               "INSERT INTO tournament_sources (tournament_id, engine, name, repo, ref, "
               "commit_sha, subject, bench, resolved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
               "ON CONFLICT (tournament_id, engine) DO NOTHING");
  st.bind(1, tournament_id)
      .bind(2, r.engine)
      .bind(3, r.name)
      .bind(4, r.repo)
      .bind(5, r.ref)
      .bind(6, r.commit)
      .bind(7, r.subject)
      .bind(8, r.bench)
      .bind(9, r.resolved_at.empty() ? utc_now_iso() : r.resolved_at)
      .run();
}

// The columns read_test() reads after the tournament's (kTournamentColumns, prefixed t.).
constexpr const char* kTestColumns =
    "t.id, t.name, t.kind, t.config_text, t.config_hash, t.seed, t.status, t.started_at, "
    "t.finished_at, q.priority, q.submitter, q.submitted_at, q.format, q.definition, "
    "q.source_path, t.stop_requested, COALESCE(t.decision, ''), "
    "(SELECT count(*) FROM games g WHERE g.tournament_id = t.id), "
    "(SELECT count(*) FROM pairs p WHERE p.tournament_id = t.id AND p.state = 'leased' "
    "AND p.lease_until_ms >= now_ms()), "
    "(SELECT count(*) FROM pairs p WHERE p.tournament_id = t.id), "
    "(SELECT count(*) FROM pairs p WHERE p.tournament_id = t.id AND (p.state = 'free' OR "
    "(p.state = 'leased' AND p.lease_until_ms < now_ms()))) "
    "FROM tests q JOIN tournaments t ON t.id = q.tournament_id";

QueuedTest read_test(const StoreCore& s, const Statement& st) {
  QueuedTest q;
  q.tournament = s.read_tournament(st);
  q.priority = st.int32(9);
  q.submitter = st.text(10);
  q.submitted_at = st.text(11);
  q.format = st.text(12);
  q.definition = st.text(13);
  q.source_path = st.text(14);
  q.stop_requested = st.int64(15) != 0;
  q.decision = st.text(16);
  q.games = st.int64(17);
  q.live_pairs = st.int64(18);
  q.pairs = st.int64(19);
  q.free_pairs = st.int64(20);
  return q;
}

}  // namespace

std::vector<SourceCommitRecord> TestQueue::source_commits(std::int64_t tournament_id) const {
  std::lock_guard lock(core_.mutex);
  return core_.read("reading the commits of tournament " + std::to_string(tournament_id), [&] {
    Statement st(core_.db, std::string("SELECT ") + kSourceColumns +
                               " FROM tournament_sources WHERE tournament_id = ? ORDER BY engine");
    st.bind(1, tournament_id);
    std::vector<SourceCommitRecord> out;
    while (st.step()) out.push_back(read_source(st));
    return out;
  });
}

SourceCommitRecord TestQueue::record_source_commit(std::int64_t tournament_id,
                                                   const SourceCommitRecord& record) {
  std::lock_guard lock(core_.mutex);
  return core_.write(
      "recording the commit of engine '" + record.name + "' of tournament " +
          std::to_string(tournament_id),
      [&] {
        insert_source(core_.db, tournament_id, record);
        Statement st(core_.db, std::string("SELECT ") + kSourceColumns +
                                   " FROM tournament_sources WHERE "
                                   "tournament_id = ? AND engine = ?");
        st.bind(1, tournament_id).bind(2, record.engine);
        if (!st.step())
          throw StoreException(describe_error(ErrorKind::Io, core_.db.path(), "recording a commit",
                                              "the row is not there"));
        return read_source(st);
      });
}

void TestQueue::set_engine_source(std::int64_t engine_id, const std::string& repo,
                                  const std::string& commit) {
  std::lock_guard lock(core_.mutex);
  core_.write("recording the commit of engine version " + std::to_string(engine_id), [&] {
    Statement st(core_.db,
                 "UPDATE engines SET source_repo = ?, source_commit = ? WHERE id = ? AND "
                 "(source_repo <> ? OR source_commit <> ?)");
    st.bind(1, repo).bind(2, commit).bind(3, engine_id).bind(4, repo).bind(5, commit).run();
  });
}

std::vector<EngineSourceRow> TestQueue::engine_sources() const {
  std::lock_guard lock(core_.mutex);
  return core_.read("reading the engines built from source", [&] {
    Statement st(core_.db,
                 "SELECT id, source_repo, source_commit FROM engines WHERE source_commit <> '' "
                 "ORDER BY id");
    std::vector<EngineSourceRow> out;
    while (st.step()) out.push_back({st.int64(0), st.text(1), st.text(2)});
    return out;
  });
}

void TestQueue::set_worker_speed(std::int64_t worker_id, std::int64_t tournament_id, double nps,
                                 double tc_factor) {
  std::lock_guard lock(core_.mutex);
  // Lazy, as the worker's registration: a power cut loses it with the worker row's last seen.
  core_.write(
      "recording the speed of worker " + std::to_string(worker_id),
      [&] {
        Statement st(core_.db,
                     "UPDATE workers SET tournament_id = ?, nps = ?, tc_factor = ? WHERE id = ?");
        st.bind(1, tournament_id).bind(2, nps).bind(3, tc_factor).bind(4, worker_id).run();
      },
      Commit::Lazy);
}

std::vector<WorkerSpeed> TestQueue::worker_speeds() const {
  std::lock_guard lock(core_.mutex);
  return core_.read("reading the speeds of the workers", [&] {
    Statement st(core_.db,
                 "SELECT id, COALESCE(tournament_id, 0), nps, COALESCE(tc_factor, 1) "
                 "FROM workers WHERE nps IS NOT NULL ORDER BY id");
    std::vector<WorkerSpeed> out;
    while (st.step()) out.push_back({st.int64(0), st.int64(1), st.real(2), st.real(3)});
    return out;
  });
}

Tournament TestQueue::submit_test(const NewTest& test) {
  std::lock_guard lock(core_.mutex);
  if (test.format != "toml" && test.format != "sprt")
    throw StoreException(describe_error(ErrorKind::Invalid, core_.db.path(), "submitting a test",
                                        "format '" + test.format + "' (toml or sprt)"));
  const std::int64_t id = core_.write("submitting test '" + test.tournament.name + "'", [&] {
    const std::int64_t tid = insert_tournament(core_.db, test.tournament);
    if (test.sprt) {
      Statement st(core_.db,
                   "UPDATE tournaments SET sprt_elo0 = ?, sprt_elo1 = ?, sprt_alpha = ?, "
                   "sprt_beta = ?, sprt_model = ? WHERE id = ?");
      st.bind(1, test.sprt->elo0)
          .bind(2, test.sprt->elo1)
          .bind(3, test.sprt->alpha)
          .bind(4, test.sprt->beta)
          .bind(5, test.sprt->model)
          .bind(6, tid)
          .run();
    }
    Statement q(core_.db,
                "INSERT INTO tests (tournament_id, priority, submitter, submitted_at, format, "
                "definition, source_path) VALUES (?, ?, ?, ?, ?, ?, ?)");
    q.bind(1, tid)
        .bind(2, test.priority)
        .bind(3, test.submitter)
        .bind(4, utc_now_iso())
        .bind(5, test.format)
        .bind(6, test.definition)
        .bind(7, test.source_path)
        .run();
    for (const auto& s : test.sources) insert_source(core_.db, tid, s);
    return tid;
  });
  return *core_.tournament(id);
}

std::vector<QueuedTest> TestQueue::tests() const {
  std::lock_guard lock(core_.mutex);
  return core_.read("reading the tests", [&] {
    Statement st(core_.db, std::string("SELECT ") + kTestColumns + " ORDER BY t.id DESC");
    std::vector<QueuedTest> out;
    while (st.step()) out.push_back(read_test(core_, st));
    return out;
  });
}

std::optional<QueuedTest> TestQueue::test(std::int64_t tournament_id) const {
  std::lock_guard lock(core_.mutex);
  return core_.read(
      "reading test " + std::to_string(tournament_id), [&]() -> std::optional<QueuedTest> {
        Statement st(core_.db, std::string("SELECT ") + kTestColumns + " WHERE t.id = ?");
        st.bind(1, tournament_id);
        if (!st.step()) return std::nullopt;
        return read_test(core_, st);
      });
}

std::vector<QueuedTest> TestQueue::open_tests() const {
  std::lock_guard lock(core_.mutex);
  return core_.read("reading the open tests", [&] {
    // Aborted: its last worker was interrupted; it is open for the next one.
    Statement st(core_.db, std::string("SELECT ") + kTestColumns +
                               " WHERE t.status IN ('running', 'aborted') AND "
                               "t.stop_requested = 0 ORDER BY q.priority DESC, 18, t.id");
    std::vector<QueuedTest> out;
    while (st.step()) out.push_back(read_test(core_, st));
    return out;
  });
}

std::int64_t TestQueue::request_stop_all() {
  std::lock_guard lock(core_.mutex);
  return core_.write("asking every worker to stop", [&] {
    Statement st(core_.db,
                 "UPDATE queue_control SET stop_epoch = stop_epoch + 1 WHERE id = 1 "
                 "RETURNING stop_epoch");
    if (!st.step())
      throw StoreException(describe_error(ErrorKind::Io, core_.db.path(),
                                          "asking every worker to stop",
                                          "the queue_control row is missing"));
    const std::int64_t epoch = st.int64(0);
    st.run();
    return epoch;
  });
}

std::int64_t TestQueue::stop_epoch() const {
  std::lock_guard lock(core_.mutex);
  return core_.read("reading the queue's stop epoch", [&] {
    Statement st(core_.db, "SELECT stop_epoch FROM queue_control WHERE id = 1");
    return st.step() ? st.int64(0) : std::int64_t{0};
  });
}

}  // namespace knightly::db

// Until the callers reach the parts: the Store's methods as they were, each forwarding to its
// part.
#include "db/store/store.h"
#include "db/store/store_parts.h"

namespace knightly::db {

std::optional<Tournament> Store::find_tournament(std::string_view name) const {
  return impl_->catalog.find_tournament(name);
}

std::optional<Tournament> Store::tournament(std::int64_t id) const {
  return impl_->catalog.tournament(id);
}

Tournament Store::create_tournament(const NewTournament& tournament) {
  return impl_->catalog.create_tournament(tournament);
}

Tournament Store::restart_tournament(std::int64_t old_id, const NewTournament& tournament) {
  return impl_->catalog.restart_tournament(old_id, tournament);
}

void Store::set_tournament_status(std::int64_t id, TournamentStatus status) {
  return impl_->catalog.set_tournament_status(id, status);
}

std::vector<TournamentSummary> Store::tournaments() const {
  return impl_->catalog.tournaments();
}

std::int64_t Store::upsert_engine(const EngineInfo& engine) {
  return impl_->catalog.upsert_engine(engine);
}

std::optional<std::string> Store::binary_sha256(const std::string& path) {
  return impl_->catalog.binary_sha256(path);
}

std::optional<std::int64_t> Store::find_engine(std::string_view name) const {
  return impl_->catalog.find_engine(name);
}

std::vector<EngineVersion> Store::engines() const {
  return impl_->catalog.engines();
}

std::int64_t Store::insert_game(std::int64_t tournament_id, const runner::GameRecord& game,
                                std::int64_t white_engine_id, std::int64_t black_engine_id) {
  return impl_->games.insert_game(tournament_id, game, white_engine_id, black_engine_id);
}

StoreOutcome Store::store_game(const Claim& claim, const runner::GameRecord& game,
                               std::int64_t white_engine_id, std::int64_t black_engine_id) {
  return impl_->games.store_game(claim, game, white_engine_id, black_engine_id);
}

std::vector<ImportOutcome> Store::import_games(std::int64_t tournament_id,
                                               std::span<const ImportItem> games) {
  return impl_->games.import_games(tournament_id, games);
}

std::string Store::content_hash(const runner::GameRecord& game, std::string_view dedup_key) {
  return GameWrites::content_hash(game, dedup_key);
}

std::int64_t Store::register_worker(const WorkerIdentity& worker) {
  return impl_->work.register_worker(worker);
}

bool Store::add_pairs(std::int64_t tournament_id, std::span<const PairSlot> pairs,
                      const std::function<bool()>& stop) {
  return impl_->work.add_pairs(tournament_id, pairs, stop);
}

ClaimResult Store::claim_pair(std::int64_t tournament_id, std::int64_t worker_id,
                              std::chrono::milliseconds lease, std::optional<int> round_window) {
  return impl_->work.claim_pair(tournament_id, worker_id, lease, round_window);
}

std::vector<std::pair<std::int64_t, WorkerIdentity>> Store::lease_holders(
    std::int64_t tournament_id) const {
  return impl_->work.lease_holders(tournament_id);
}

void Store::expire_leases(std::int64_t worker_id) {
  return impl_->work.expire_leases(worker_id);
}

void Store::renew_leases(std::int64_t worker_id, std::chrono::milliseconds lease) {
  return impl_->work.renew_leases(worker_id, lease);
}

void Store::release_claim(const Claim& claim) {
  return impl_->work.release_claim(claim);
}

void Store::set_live_position(const Claim& claim, int game_in_pair, int ply,
                              const std::string& fen) {
  return impl_->work.set_live_position(claim, game_in_pair, ply, fen);
}

bool Store::finish_tournament(std::int64_t id, TournamentStatus status,
                              const std::string& decision) {
  return impl_->work.finish_tournament(id, status, decision);
}

bool Store::request_stop(std::string_view name, const std::string& decision) {
  return impl_->work.request_stop(name, decision);
}

std::int64_t Store::scheduled_games(std::int64_t tournament_id) const {
  return impl_->work.scheduled_games(tournament_id);
}

TournamentControl Store::control(std::int64_t tournament_id) const {
  return impl_->work.control(tournament_id);
}

void Store::set_sprt_settings(std::int64_t tournament_id, const SprtSettings& sprt) {
  return impl_->work.set_sprt_settings(tournament_id, sprt);
}

std::optional<SprtSettings> Store::sprt_settings(std::int64_t tournament_id) const {
  return impl_->work.sprt_settings(tournament_id);
}

std::vector<WorkerSummary> Store::workers(const GameFilter& filter) const {
  return impl_->work.workers(filter);
}

std::vector<WorkerState> Store::worker_states() const {
  return impl_->work.worker_states();
}

std::vector<SourceCommitRecord> Store::source_commits(std::int64_t tournament_id) const {
  return impl_->test_queue.source_commits(tournament_id);
}

SourceCommitRecord Store::record_source_commit(std::int64_t tournament_id,
                                               const SourceCommitRecord& record) {
  return impl_->test_queue.record_source_commit(tournament_id, record);
}

void Store::set_engine_source(std::int64_t engine_id, const std::string& repo,
                              const std::string& commit) {
  return impl_->test_queue.set_engine_source(engine_id, repo, commit);
}

std::vector<EngineSourceRow> Store::engine_sources() const {
  return impl_->test_queue.engine_sources();
}

void Store::set_worker_speed(std::int64_t worker_id, std::int64_t tournament_id, double nps,
                             double tc_factor) {
  return impl_->test_queue.set_worker_speed(worker_id, tournament_id, nps, tc_factor);
}

std::vector<WorkerSpeed> Store::worker_speeds() const {
  return impl_->test_queue.worker_speeds();
}

Tournament Store::submit_test(const NewTest& test) {
  return impl_->test_queue.submit_test(test);
}

std::vector<QueuedTest> Store::tests() const {
  return impl_->test_queue.tests();
}

std::optional<QueuedTest> Store::test(std::int64_t tournament_id) const {
  return impl_->test_queue.test(tournament_id);
}

std::vector<QueuedTest> Store::open_tests() const {
  return impl_->test_queue.open_tests();
}

std::int64_t Store::request_stop_all() {
  return impl_->test_queue.request_stop_all();
}

std::int64_t Store::stop_epoch() const {
  return impl_->test_queue.stop_epoch();
}

void Store::create_tune(std::int64_t tournament_id, const TuneSetup& setup,
                        std::span<const runner::tune::Param> params) {
  return impl_->tunes.create_tune(tournament_id, setup, params);
}

std::optional<StoredTune> Store::tune(std::int64_t tournament_id, int from_iteration) const {
  return impl_->tunes.tune(tournament_id, from_iteration);
}

std::vector<std::int64_t> Store::tune_ids() const {
  return impl_->tunes.tune_ids();
}

std::vector<runner::tune::Step> Store::begin_tune_iteration(
    std::int64_t tournament_id, int iteration, std::span<const runner::tune::Step> steps) {
  return impl_->tunes.begin_tune_iteration(tournament_id, iteration, steps);
}

int Store::finish_tune_iterations(std::int64_t tournament_id) {
  return impl_->tunes.finish_tune_iterations(tournament_id);
}

std::vector<runner::GameId> Store::stored_game_ids(std::int64_t tournament_id) const {
  return impl_->queries.stored_game_ids(tournament_id);
}

std::int64_t Store::count_games(const GameFilter& filter) const {
  return impl_->queries.count_games(filter);
}

void Store::for_each_game(const GameFilter& filter,
                          const std::function<void(const StoredGame&)>& callback,
                          bool with_moves) const {
  return impl_->queries.for_each_game(filter, callback, with_moves);
}

std::vector<GameSummary> Store::games(const GameFilter& filter) const {
  return impl_->queries.games(filter);
}

std::vector<PairCount> Store::pair_counts(const GameFilter& filter) const {
  return impl_->queries.pair_counts(filter);
}

std::vector<VersionPairCount> Store::version_pair_counts(const GameFilter& filter) const {
  return impl_->queries.version_pair_counts(filter);
}

std::vector<Standing> Store::standings(const GameFilter& filter) const {
  return impl_->queries.standings(filter);
}

std::vector<HeadToHead> Store::head_to_head(const GameFilter& filter) const {
  return impl_->queries.head_to_head(filter);
}

std::vector<TerminationCount> Store::termination_counts(const GameFilter& filter,
                                                        bool by_reason) const {
  return impl_->queries.termination_counts(filter, by_reason);
}

void Store::for_each_pair_result(const GameFilter& filter,
                                 const std::function<void(const PairResult&)>& callback) const {
  return impl_->queries.for_each_pair_result(filter, callback);
}

std::vector<PairResult> Store::pair_results(const GameFilter& filter) const {
  return impl_->queries.pair_results(filter);
}

std::vector<MoveStats> Store::move_stats(const GameFilter& filter,
                                         std::int64_t newest_games) const {
  return impl_->queries.move_stats(filter, newest_games);
}

std::vector<EngineHealth> Store::engine_health(const GameFilter& filter) const {
  return impl_->queries.engine_health(filter);
}

void Store::for_each_result(const GameFilter& filter,
                            const std::function<void(const StoredResult&)>& callback) const {
  return impl_->queries.for_each_result(filter, callback);
}

std::vector<GameSummary> Store::game_page(const GameFilter& filter, std::int64_t before_id,
                                          int limit) const {
  return impl_->queries.game_page(filter, before_id, limit);
}

std::optional<StoredGame> Store::game(std::int64_t id) const {
  return impl_->queries.game(id);
}

std::string Store::data_generation() const {
  return impl_->queries.data_generation();
}

std::vector<LeasedPair> Store::leased_pairs() const {
  return impl_->queries.leased_pairs();
}

}  // namespace knightly::db

#pragma once
// Plain structs the Store takes and returns. No formatting here: the CLI prints them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/records/game_record.h"

namespace knightly::db {

enum class TournamentKind { Run, Sprt, Import };
enum class TournamentStatus { Running, Finished, Aborted, Restarted };

const char* kind_text(TournamentKind kind);        // "run" | "sprt" | "import"
const char* status_text(TournamentStatus status);  // "running" | "finished" | ...
std::optional<TournamentKind> parse_kind(std::string_view text);
std::optional<TournamentStatus> parse_status(std::string_view text);

// games.termination holds termination_name() (db/records/game_record.h), read back
// with parse_termination(): one table, part of the database format (docs/schema.md).

struct NewTournament {
  std::string name;
  TournamentKind kind = TournamentKind::Run;
  std::string config_text;  // the config as given; its SHA-256 is stored beside it
  std::uint64_t seed = 0;
  std::string started_at;  // ISO 8601 UTC; "" = now
};

struct Tournament {
  std::int64_t id = 0;
  std::string name;
  TournamentKind kind = TournamentKind::Run;
  std::string config_text;
  std::string config_hash;  // SHA-256 hex of config_text
  std::uint64_t seed = 0;
  TournamentStatus status = TournamentStatus::Running;
  std::string started_at;
  std::string finished_at;  // "" while running
};

// One engine version: a new row whenever name, command, options or binary hash differ.
struct EngineInfo {
  std::string name;
  std::string command;        // command line as text (argv joined), "" for builtin/imported
  std::string options;        // UCI options as text, e.g. "Hash=16 Threads=1"
  std::string uci_name;       // "id name" reported by the engine
  std::string uci_author;     // "id author"
  std::string binary_sha256;  // hex, "" when unknown (builtin, imported)
  bool builtin = false;
};

struct EngineVersion {
  std::int64_t id = 0;
  EngineInfo info;
  std::string first_seen;
  std::int64_t games = 0;   // games played by this version
  std::string last_played;  // started_at of its latest game, "" if none
};

// A stored game as export and queries read it back.
struct StoredGame {
  std::int64_t id = 0;
  std::int64_t tournament_id = 0;
  std::int64_t white_engine_id = 0;
  std::int64_t black_engine_id = 0;
  std::string opening_moves;  // space-separated UCI of the leading book moves
  GameRecord record;          // moves empty unless asked for
  // Whether the moves are rows of `moves` (played games, games imported before schema 8)
  // rather than lists in the game's row (games.moves_uci, moves_san: imported games).
  bool moves_in_rows = true;
};

// Import identity: imported games get the next schedule index of their tournament and are
// grouped two by two into pairs (pair = index / 2, game_in_pair = index % 2), as cutechess
// and fastchess write game pairs consecutively.
enum class ImportOutcome { Inserted, Duplicate };

// Which games a query covers. Empty fields do not filter. Every value is bound as a
// parameter, never spliced into SQL.
struct GameFilter {
  std::vector<std::string> tournaments;      // names of live (not restarted) tournaments
  std::vector<std::int64_t> tournament_ids;  // or ids (any tournament, restarted too)
  std::vector<std::string> engines;          // engine names
  bool both_engines_in_set = false;          // true: both players in `engines` (rating subsets)
  std::string result;                        // "1-0" | "0-1" | "1/2-1/2"
  std::string termination;                   // as stored, e.g. "time forfeit"
  std::string since;                         // started_at >= since (ISO 8601 prefix: 2026-11-01)
  std::string until;                         // started_at < until
  std::int64_t limit = 0;                    // games(): at most this many rows; 0 = all
  // Only the first this many of the filtered games in the order they were stored (by id):
  // the games a decision counted ("after N games"), whatever was stored after it; 0 = all.
  std::int64_t first_stored = 0;
  bool newest_first = false;  // games(): order by start time descending
};

struct TournamentSummary {
  Tournament tournament;
  std::int64_t games = 0;
};

struct GameSummary {
  std::int64_t id = 0;
  std::int64_t tournament_id = 0;
  std::string tournament;
  GameId game_id;
  std::string white;
  std::string black;
  Result result = Result::None;
  Termination termination = Termination::None;
  std::string reason;
  int plies = 0;
  std::string started_at;
  std::int64_t duration_ms = 0;
  std::string time_control;
  std::string opening_source;
};

// W/D/L of `white` against `black` with those colours, over the filtered games. Engine
// versions with the same name count as one engine.
struct PairCount {
  std::string white;
  std::string black;
  std::int64_t white_wins = 0;
  std::int64_t draws = 0;
  std::int64_t black_wins = 0;
  std::int64_t games() const { return white_wins + draws + black_wins; }
};

// The same, per engine version (engines row) and tournament, with the games' TimeControl
// tag ("white / black" when they differ): what tells an engine's identities apart.
struct VersionPairCount {
  std::int64_t tournament_id = 0;
  std::int64_t white_id = 0;
  std::int64_t black_id = 0;
  std::string time_control;
  std::int64_t white_wins = 0;
  std::int64_t draws = 0;
  std::int64_t black_wins = 0;
};

struct Standing {
  std::string engine;
  std::int64_t games = 0;
  std::int64_t wins = 0;
  std::int64_t draws = 0;
  std::int64_t losses = 0;
  double points() const { return static_cast<double>(wins) + 0.5 * static_cast<double>(draws); }
  // Points per game, 0..1 (0 without games).
  double score() const { return games ? points() / static_cast<double>(games) : 0.0; }
};

// `engine` against `opponent`, both colours, from `engine`'s point of view.
struct HeadToHead {
  std::string engine;
  std::string opponent;
  std::int64_t wins = 0;
  std::int64_t draws = 0;
  std::int64_t losses = 0;
};

// Standings and the head-to-head cells of colour-wise counts. Standings rank by score (points
// per game: the engines may have played different numbers of games), then by points.
std::vector<Standing> standings_from(const std::vector<PairCount>& counts);
std::vector<HeadToHead> head_to_head_from(const std::vector<PairCount>& counts);

struct TerminationCount {
  std::string termination;
  std::string reason;  // "" when counted by termination only
  std::int64_t count = 0;
};

// The games of one encounter (same opening, colours reversed), for pentanomial counts.
struct PairGame {
  int game_in_pair = 0;
  std::string white;
  std::string black;
  Result result = Result::None;
};
struct PairResult {
  std::int64_t tournament_id = 0;
  int round = 0;
  int pair = 0;
  std::vector<PairGame> games;  // in game_in_pair order; one game if its partner is missing
};

// ---------------------------------------------------------------- shared work (many workers)
// The contract between the store and the run (runner/run): see docs/distributed.md.

// Who plays: one `knightly run` process. Stored with every game and claim.
struct WorkerIdentity {
  std::string host;
  std::int64_t pid = 0;
  std::string started_at;  // ISO 8601 UTC, with milliseconds
};

// A unit of work: one pair of games sharing an opening (or a single game where an encounter
// has an odd number of games). The schedule is a pure function of the config and the seed, so
// every worker derives the same slots; add_pairs() is idempotent.
struct PairSlot {
  int round = 0;
  int pair = 0;
  int games = 2;           // games in this pair: 1 or 2
  int schedule_index = 0;  // schedule index of its first game: claims go in this order
};

// A pair held by one worker under a lease. `attempt` is the lease token: a store_game() whose
// attempt is no longer the pair's current one (the lease expired and another worker took the
// pair over) is kept as a superseded attempt and counted nowhere.
struct Claim {
  std::int64_t tournament_id = 0;
  int round = 0;
  int pair = 0;
  int games = 2;
  int schedule_index = 0;
  std::int64_t worker_id = 0;
  std::int64_t attempt = 0;
  std::vector<int> stored;  // game_in_pair values already stored (a taken-over pair resumes)
  // The same lease: the same attempt at the same pair.
  bool same_attempt(const Claim& other) const {
    return tournament_id == other.tournament_id && round == other.round && pair == other.pair &&
           attempt == other.attempt;
  }
};

enum class ClaimStatus {
  Claimed,    // `claim` holds a pair for this worker
  Busy,       // nothing free now, but pairs are leased by others: try again after a while
  Exhausted,  // every pair is stored
  Stopped,    // the tournament is finished, aborted, or a stop was requested
};
struct ClaimResult {
  ClaimStatus status = ClaimStatus::Exhausted;
  std::optional<Claim> claim;
  std::vector<Claim> more;  // Work::claim_pairs: the pairs claimed after `claim`, in schedule order
};

enum class StoreOutcome {
  Stored,      // in games, counted
  Superseded,  // the lease was lost: kept in superseded_games, counted nowhere
};

// What every worker reads after each game it stores (one decision for all workers).
struct TournamentControl {
  TournamentStatus status = TournamentStatus::Running;
  bool stop_requested = false;  // `knightly stop NAME`
  std::string decision;         // why it finished ("sprt: H1 accepted", "max games", ...)
};

// SPRT settings stored with a tournament as data (query sprt reads them back).
struct SprtSettings {
  double elo0 = 0.0;
  double elo1 = 5.0;
  double alpha = 0.05;
  double beta = 0.05;
  std::string model = "normalized";
};

// One worker's record, for `knightly query workers`.
struct WorkerSummary {
  std::int64_t id = 0;
  WorkerIdentity identity;
  std::string last_seen;
  std::int64_t games = 0;
  std::int64_t crashes = 0;  // disconnect + stall terminations
  std::int64_t time_losses = 0;
  std::int64_t illegal_moves = 0;
  std::int64_t superseded = 0;  // results that arrived after the lease was taken over
};

// Where a worker is now (Store::worker_states): what `query workers` tells alive from gone.
struct WorkerState {
  std::int64_t id = 0;
  std::vector<std::string> tournaments;  // played or claimed in, by name
  bool tournament_running = false;       // one of them is still running
  std::int64_t leases = 0;               // pairs it holds under a lease
  std::int64_t leases_expired = 0;       // of those, leases that ran out without renewal
  std::int64_t seen_ago_ms = 0;          // since its last heartbeat, by the database's clock
};

}  // namespace knightly::db

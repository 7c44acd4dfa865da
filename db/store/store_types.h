#pragma once
// Plain structs the Store takes and returns. No formatting here: the CLI prints them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/match/game_record.h"

namespace knightly::db {

enum class TournamentKind { Run, Sprt, Import };
enum class TournamentStatus { Running, Finished, Aborted, Restarted };

const char* kind_text(TournamentKind kind);        // "run" | "sprt" | "import"
const char* status_text(TournamentStatus status);  // "running" | "finished" | ...
std::optional<TournamentKind> parse_kind(std::string_view text);
std::optional<TournamentStatus> parse_status(std::string_view text);

// The stable text stored in games.termination ("checkmate", "time forfeit", ...).
// These strings are part of the database format (docs/schema.md); never rename one.
const char* termination_text(runner::Termination termination);
std::optional<runner::Termination> parse_termination(std::string_view text);
std::optional<runner::Result> parse_result(std::string_view text);  // "1-0" | "0-1" | "1/2-1/2"

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
  runner::GameRecord record;  // moves empty unless asked for
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
  bool newest_first = false;                 // games(): order by start time descending
};

struct TournamentSummary {
  Tournament tournament;
  std::int64_t games = 0;
};

struct GameSummary {
  std::int64_t id = 0;
  std::int64_t tournament_id = 0;
  std::string tournament;
  runner::GameId game_id;
  std::string white;
  std::string black;
  std::string result;  // "1-0" | "0-1" | "1/2-1/2"
  std::string termination;
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

struct Standing {
  std::string engine;
  std::int64_t games = 0;
  std::int64_t wins = 0;
  std::int64_t draws = 0;
  std::int64_t losses = 0;
  double points() const { return static_cast<double>(wins) + 0.5 * static_cast<double>(draws); }
};

// `engine` against `opponent`, both colours, from `engine`'s point of view.
struct HeadToHead {
  std::string engine;
  std::string opponent;
  std::int64_t wins = 0;
  std::int64_t draws = 0;
  std::int64_t losses = 0;
};

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
  runner::Result result = runner::Result::None;
};
struct PairResult {
  std::int64_t tournament_id = 0;
  int round = 0;
  int pair = 0;
  std::vector<PairGame> games;  // in game_in_pair order; one game if its partner is missing
};

}  // namespace knightly::db

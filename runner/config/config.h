#pragma once
// The tournament as plain validated structs. Parsed from TOML (config_toml.h), from the
// command-line flags of cutechess-cli and fastchess (play_flags.h) or from `knightly sprt`'s
// flags into the same types, so users switch with one line; every key, its type, default and
// spellings are in one table (match_schema.h). A choice among words is an enum (choices.h).
// No I/O here beyond what the parsers are handed.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runner/config/choices.h"
#include "runner/match/adjudication.h"
#include "runner/match/engine_limits.h"
#include "runner/match/game_pgn.h"

namespace knightly::runner {

// An engine built from its source (docs/regression-testing.md): `ref` of the git repository
// `repo`, built in `subdir` by `build` (its words exec'd, {exe} replaced by the path the program
// must be written to). Parsed by engine_source.h from the TOML keys and the engine words
// repo=, ref=, build=, subdir=, bench=; `commit` is filled in by the run that resolves `ref`.
struct EngineSource {
  std::string repo;  // a local path (relative to the config's directory) or a URL git fetches
  std::string ref;   // a commit, branch or tag
  std::string build = "make -j EXE={exe}";  // OpenBench's convention
  std::string subdir;                       // where the build runs, inside the repository
  std::optional<std::uint64_t> bench;       // the bench node count; else the commit's "Bench: N"
  std::string commit;                       // `ref` resolved once per test (full SHA-1)
  bool operator==(const EngineSource&) const = default;
};

struct EngineConfig {
  std::string name;
  // UCI subprocess (builtin == false): argv[0] = command, then args; exec'd directly.
  std::string command;
  std::vector<std::string> args;
  std::string workdir;                     // "" = current directory
  std::map<std::string, std::string> env;  // added to the inherited environment
  bool builtin = false;                    // in-process knightly-engine configuration
  std::vector<std::pair<std::string, std::string>> options;  // UCI options, in given order
  EngineLimits limits;
  Protocol protocol = Protocol::Uci;
  bool restart = false;  // a new process before every game (fastchess/cutechess restart=on)
  bool ponder = false;   // think on the opponent's time (cutechess's `ponder`)
  // Built from source: `command` is empty until the run has built it.
  std::optional<EngineSource> source;
  bool operator==(const EngineConfig&) const = default;
};

struct OpeningsConfig {
  std::string file;  // "" = none (start position)
  BookFormat format = BookFormat::Epd;
  BookOrder order = BookOrder::Random;
  int start = 1;         // 1-based index of the first opening used
  int plies = 0;         // at most N plies of a PGN line; 0 = all
  int random_plies = 0;  // N random legal plies from the position
  // Chess960 without a file: false = one of the 960 start positions for each pair, true =
  // Double Fischer Random (White's and Black's back ranks drawn apart, 960 x 960).
  bool dfrc = false;
  bool operator==(const OpeningsConfig&) const = default;
};

struct SprtConfig {
  bool enabled = false;
  double elo0 = 0.0;
  double elo1 = 5.0;
  double alpha = 0.05;
  double beta = 0.05;
  stats::EloModel model = stats::EloModel::Normalized;
  bool operator==(const SprtConfig&) const = default;
};

// Where a config path was resolved from: relative input paths in a TOML file (openings file,
// engine command containing '/', workdir) are taken from the file's directory; output paths
// (database, pgn) stay relative to the current directory. See docs/config.md.
struct OutputConfig {
  std::string database = "knightly.db";
  std::string pgn;         // "" = no PGN file
  PgnOptions pgn_options;  // notation, extra comment fields, minimal form
  // true: a new match's games go after what the file already holds (fastchess's and
  // cutechess's way); false: a new match empties the file first. A resumed match's file is
  // always the same prefix followed by its games (docs/cli.md).
  bool pgn_append = true;
  std::string epd;         // "" = none; else the final position of every game, one FEN a line
  bool epd_append = true;  // as pgn_append, for the EPD file
  std::string event;       // PGN Event tag; "" = the tournament's name
  std::string site;        // PGN Site tag; "" = "?"
  SyncMode sync = SyncMode::Full;
  std::optional<OutputStyle> format;  // none: the command's default
  bool report_penta = true;  // fastchess's report from game pairs (false: from single games)
  int rating_interval = 0;   // Elo, LOS and LLR every N finished games; 0 = only at the end
  int score_interval = 0;    // "Score of A vs B" every N finished games; 0 = format's default
  std::string log_file;      // "" = none; the runner's messages (and engine I/O with log_engine)
  bool log_engine = false;   // every line sent to and received from each engine, in log_file
  bool log_append = true;    // false: a new run empties the log file first
  bool crc32 = false;        // print the PGN file's CRC32 at the end (fishtest checks it)
  bool operator==(const OutputConfig&) const = default;
};

// How long a UCI engine may take outside its clock: from spawn to `uciok` (start-up), to answer
// the `isready` after its options are set (ping), and `ucinewgame` + `isready` before each game.
// fastchess's defaults: engines that load a network at `isready` take seconds.
struct PlayerTimeouts {
  std::int64_t startup_ms = 10000;
  std::int64_t ucinewgame_ms = 60000;
  std::int64_t ping_ms = 60000;
  bool operator==(const PlayerTimeouts&) const = default;
};

struct TournamentConfig {
  std::string name = "tournament";
  TournamentFormat format = TournamentFormat::RoundRobin;
  int seeds = 1;  // gauntlet: the first N engines play everyone else
  int rounds = 1;
  int games_per_encounter = 2;  // 2 = a game pair (same opening, colours reversed)
  bool repeat = true;           // pairs share an opening
  int concurrency = 1;
  std::optional<std::uint64_t> seed;  // none: chosen at start and stored (0 is a seed too)
  EngineLimits defaults;              // default tc / depth / nodes
  Adjudication adjudication;
  bool recover = true;                  // restart crashed engines
  Variant variant = Variant::Standard;  // fischerandom: Chess960 (runner/config/variant.h)
  bool swap_sides = true;          // false (-noswap): the first engine of an encounter keeps White
  bool reverse_sides = false;      // -reverse: every game with the colours the other way round
  int wait_ms = 0;                 // pause before each game a worker starts
  bool affinity = false;           // pin each worker (and the engines it starts) to its own CPUs
  std::vector<int> affinity_cpus;  // the CPUs to hand out; empty = all of this machine's
  PlayerTimeouts timeouts;
  // fastchess's -check-mate-pvs: a mate score's PV must end in mate (a warning otherwise).
  bool check_mate_pvs = false;
  // fishtest's scaling: each worker multiplies the time controls by reference_nps / its own
  // nps (the bench of the last engine, the base of a test); 0 = not scaled.
  double reference_nps = 0;
  bool operator==(const TournamentConfig&) const = default;
};

// Where each key of a TOML config was written ("engine[2].command" -> line, column), so that
// checks made after parsing (missing engine programs) can point into the file. Metadata, not
// configuration: two configs compare equal whatever their positions.
struct SourcePositions {
  std::map<std::string, std::pair<int, int>> at;
  bool operator==(const SourcePositions&) const { return true; }
};

struct Config {
  TournamentConfig tournament;
  std::vector<EngineConfig> engines;
  OpeningsConfig openings;
  SprtConfig sprt;
  OutputConfig output;
  std::string source_text;    // the config as given (stored in the database)
  std::string source_path;    // for messages
  std::string base_dir;       // directory relative input paths were resolved against ("" = cwd)
  SourcePositions positions;  // empty when not parsed from TOML
  bool operator==(const Config&) const = default;
};

}  // namespace knightly::runner

#include "runner/config/match_schema.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "runner/match/game_pgn.h"
#include "runner/match/time_control.h"

namespace knightly::runner {
namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kHour = 3'600'000;
constexpr unsigned kAll = CommandRun | CommandPlay | CommandSprt;

std::int64_t I(const Value& v) {
  return std::get<std::int64_t>(v);
}
int N(const Value& v) {
  return static_cast<int>(std::get<std::int64_t>(v));
}
bool B(const Value& v) {
  return std::get<bool>(v);
}
double D(const Value& v) {
  return std::get<double>(v);
}
const std::string& S(const Value& v) {
  return std::get<std::string>(v);
}
template <typename E>
E C(const Value& v) {
  return static_cast<E>(std::get<std::int64_t>(v));
}

const std::vector<std::string>& notation_names() {
  static const std::vector<std::string> names = {notation_name(PgnNotation::San),
                                                 notation_name(PgnNotation::Lan),
                                                 notation_name(PgnNotation::Uci)};
  return names;
}
const std::vector<std::string>& policies() {
  static const std::vector<std::string> names = {"default", "round"};
  return names;
}
const std::vector<std::string>& book_modes() {
  static const std::vector<std::string> names = {"ram", "disk"};
  return names;
}
const std::vector<std::string>& log_levels() {
  static const std::vector<std::string> names = {"trace", "info", "warn", "err", "fatal"};
  return names;
}
const std::vector<std::string>& on_stop_words() {
  static const std::vector<std::string> names = {"finish", "abandon"};
  return names;
}
const std::vector<std::string>& restart_words() {
  static const std::vector<std::string> names = {"on", "off", "auto"};
  return names;
}

using T = ValueType;
using S_ = Support;
constexpr AnchorSpelling same{S_::Same, ""};
constexpr AnchorSpelling absent{S_::Absent, ""};
constexpr AnchorSpelling differs(std::string_view note) {
  return {S_::Differs, note};
}
constexpr AnchorSpelling same_as(std::string_view note) {
  return {S_::Same, note};
}
constexpr AnchorSpelling absent_but(std::string_view note) {
  return {S_::Absent, note};
}

// clang-format off
const MatchKey kSchema[] = {
  // ---------------------------------------------------------------- engines
  {.toml = "engine", .flag = "-engine", .type = T::Words, .placeholder = "WORDS",
   .meaning = "An engine, described by the key=value words below; at least two engines.",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.flag = "-each", .type = T::Words, .placeholder = "WORDS",
   .meaning = "Engine words for every engine, applied after each engine's own words (they "
              "override them).",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomFlag},
  {.knightly = "--new", .commands = CommandSprt, .type = T::Text, .placeholder = "SPEC",
   .meaning = "The engine under test: a program path, or engine words in one argument (split "
              "as a shell splits them); named New unless it gives name=.",
   .role = Role::Match, .custom = CustomSprt},
  {.knightly = "--base", .commands = CommandSprt, .type = T::Text, .placeholder = "SPEC",
   .meaning = "The engine it is tested against, as --new; named Base unless it gives name=.",
   .role = Role::Match, .custom = CustomSprt},
  {.toml = "engine.command", .flag = "-engine", .word = "cmd", .type = T::Text,
   .placeholder = "PATH",
   .meaning = "The program, exec'd directly (relative to dir= when given). A value with a "
              "blank that is not a file is a command line split like a shell.",
   .cutechess = same_as("a command line"), .fastchess = same_as("a path"), .role = Role::Match,
   .custom = CustomToml | CustomFlag},
  {.toml = "engine.name", .flag = "-engine", .word = "name", .type = T::Text,
   .fallback = "the program's file name (a fastchess line: without its extension)",
   .meaning = "The engine's name in results, PGN and the database.",
   .cutechess = differs("default: the name the engine gives itself (UCI id name), which Knightly "
                        "does not know before the match starts"),
   .fastchess = same, .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.workdir", .flag = "-engine", .word = "dir", .type = T::Text,
   .placeholder = "DIR", .fallback = "the current directory",
   .meaning = "The engine's working directory.", .cutechess = same, .fastchess = same,
   .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.args", .flag = "-engine", .word = "arg", .type = T::Text, .placeholder = "ARG",
   .meaning = "One argument of the program (repeatable).", .cutechess = same,
   .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.flag = "-engine", .word = "args", .type = T::Text, .placeholder = "\"A B\"",
   .meaning = "Arguments of the program, split as a shell splits them.", .fastchess = same,
   .role = Role::Match, .custom = CustomFlag},
  {.toml = "engine.options", .flag = "-engine", .word = "option.NAME", .type = T::Text,
   .placeholder = "VALUE",
   .meaning = "A UCI option (`setoption`; an xboard engine gets `option NAME=VALUE`), in the "
              "order given; a name may have spaces, even where the shell split it.",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.env", .flag = "-engine", .word = "env.NAME", .type = T::Text,
   .placeholder = "VALUE", .meaning = "An environment variable for the engine.",
   .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.proto", .flag = "-engine", .word = "proto", .type = T::Choice,
   .choices = &choice_names<Protocol>, .fallback = "uci",
   .meaning = "The protocol: uci, or xboard (CECP 2, docs/config.md).", .cutechess = same,
   .fastchess = differs("uci only"), .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.builtin", .flag = "-engine", .word = "builtin", .type = T::Text,
   .placeholder = "NAME",
   .meaning = "An in-process knightly-engine configuration instead of a program.",
   .role = Role::Match, .custom = CustomToml | CustomFlag},
  // An engine built from its source (engine_source.h parses these five for every front end).
  {.toml = "engine.repo", .flag = "-engine", .word = "repo", .type = T::Text,
   .placeholder = "PATH_OR_URL",
   .meaning = "Built from its source instead of a program: the git repository (a path, relative "
              "to the config's directory, or a URL git fetches); with ref=.",
   .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.ref", .flag = "-engine", .word = "ref", .type = T::Text,
   .placeholder = "COMMIT_OR_BRANCH",
   .meaning = "The commit, branch or tag of repo= to build: resolved to a commit once per test, "
              "stored with every game.",
   .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.build", .flag = "-engine", .word = "build", .type = T::Text,
   .placeholder = "COMMAND", .fallback = "make -j EXE={exe}",
   .meaning = "How repo= is built: words exec'd in the repository (or subdir=), {exe} replaced by "
              "where the program must go (OpenBench's convention).",
   .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.subdir", .flag = "-engine", .word = "subdir", .type = T::Text,
   .placeholder = "DIR", .fallback = "the repository's top",
   .meaning = "Where the build runs, inside the repository.", .role = Role::Match,
   .custom = CustomToml | CustomFlag},
  {.toml = "engine.bench", .flag = "-engine", .word = "bench", .type = T::Integer, .min = 1,
   .max = std::numeric_limits<std::int64_t>::max(), .fallback = "the commit message's Bench: N",
   .meaning = "The node count the built engine's bench must print; another count refuses the "
              "test, naming both.",
   .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.tc", .flag = "-engine", .word = "tc", .type = T::Text, .placeholder = "TC",
   .meaning = "The time control, moves/time+increment (time in seconds or m:ss), or inf.",
   .cutechess = differs("also hourglass (hg), refused here"), .fastchess = same,
   .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.st", .flag = "-engine", .word = "st", .type = T::Number,
   .placeholder = "SECONDS",
   .meaning = "A fixed time per move, not with a clock (tc=inf keeps it); whole seconds for "
              "an xboard engine.",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.time_margin", .flag = "-engine", .word = "timemargin", .type = T::Integer,
   .min = 0, .max = kHour, .placeholder = "MS", .fallback = "0",
   .meaning = "Milliseconds the engine may exceed its clock before it loses on time.",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.depth", .flag = "-engine", .word = "depth", .type = T::Integer, .min = 1,
   .max = 1000, .meaning = "A depth limit per move.", .cutechess = same, .fastchess = same,
   .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.flag = "-engine", .word = "plies", .type = T::Integer, .min = 1, .max = 1000,
   .meaning = "The same as depth=.", .fastchess = same, .role = Role::Match,
   .custom = CustomFlag},
  {.toml = "engine.nodes", .flag = "-engine", .word = "nodes", .type = T::Integer, .min = 1,
   .max = std::numeric_limits<std::int64_t>::max(),
   .meaning = "A node limit per move (an error for an xboard engine: CECP has none).",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.restart", .flag = "-engine", .word = "restart", .type = T::Choice,
   .choices = &restart_words, .fallback = "off",
   .meaning = "on: a new process before every game; off: one process for every game "
              "(restarted after a crash or a stall).",
   .cutechess = differs("auto lets the engine ask; a UCI engine never asks, so auto is off"),
   .fastchess = same_as("on or off"), .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.toml = "engine.ponder", .flag = "-engine", .word = "ponder", .type = T::Flag,
   .meaning = "The engine thinks on its opponent's time (`go ponder` after its move, "
              "`ponderhit` or `stop` after the opponent's).",
   .cutechess = same, .role = Role::Match, .custom = CustomToml | CustomFlag},
  {.flag = "-engine", .word = "trust", .type = T::Flag,
   .cutechess = differs("takes an engine's result claims unchecked"), .role = Role::Match,
   .custom = CustomFlag,
   .refused = "trust (an xboard engine's result claims taken unchecked) is not supported: every "
              "claim is judged by the board, and a false one loses"},
  {.flag = "-engine", .word = "whitepov", .type = T::Flag,
   .cutechess = differs("scores from White's point of view"), .role = Role::Match,
   .custom = CustomFlag,
   .refused = "whitepov (engines that report White's point of view) is not supported"},
  {.flag = "-engine", .word = "book", .type = T::Text,
   .cutechess = differs("a Polyglot book per engine"), .role = Role::Match, .custom = CustomFlag,
   .refused = "book= (a Polyglot book per engine) is not supported; use -openings file=F"},
  {.flag = "-engine", .word = "bookdepth", .type = T::Integer,
   .cutechess = differs("the depth of book=") , .role = Role::Match, .custom = CustomFlag,
   .refused = "bookdepth= (a Polyglot book per engine) is not supported; use -openings file=F "
              "plies=N"},
  {.flag = "-engine", .word = "conf", .type = T::Text,
   .cutechess = differs("an engine of engines.json"), .role = Role::Match, .custom = CustomFlag,
   .refused = "conf=NAME reads cutechess's engines.json; give cmd=, name= and option.NAME= here"},
  {.flag = "-engine", .word = "initstr", .type = T::Text,
   .cutechess = differs("text sent before the protocol starts"), .role = Role::Match,
   .custom = CustomFlag,
   .refused = "initstr= (text sent before the protocol starts) is not supported"},
  {.flag = "-engine", .word = "stderr", .type = T::Text,
   .cutechess = differs("the engine's stderr to a file"), .role = Role::Match,
   .custom = CustomFlag,
   .refused = "stderr=FILE is not supported; --log-dir DIR writes DIR/NAME.stderr.log"},
  {.flag = "-engine", .word = "debug", .type = T::Flag,
   .cutechess = differs("this engine's lines on stdout (-debug all)"), .role = Role::Match,
   .custom = CustomFlag,
   .refused = "debug (an engine's lines on stdout) is not supported; -log file=F engine=true "
              "writes them, or --log-dir DIR one file per engine"},
  {.flag = "-engine", .word = "tscale", .type = T::Number,
   .cutechess = differs("scales the timeouts"), .role = Role::Match, .custom = CustomFlag,
   .refused = "tscale= is not supported; set the timeouts with -startup-ms, -ucinewgame-ms and "
              "-ping-ms"},

  // ---------------------------------------------------------------- the schedule
  {.toml = "tournament.name", .knightly = "--tournament", .commands = CommandPlay,
   .type = T::Text, .placeholder = "NAME",
   .fallback = "play- and 12 hex digits of the match's identity's hash",
   .meaning = "The match's name in the database. Running the same match again resumes it; "
              "another match under a name in use is refused, naming what differs.",
   .role = Role::Name, .apply = [](Config& c, const Value& v) { c.tournament.name = S(v); }},
  {.toml = "tournament.name", .knightly = "--name", .commands = CommandSprt, .type = T::Text,
   .placeholder = "NAME", .fallback = "sprt- and 12 hex digits of the test's identity's hash",
   .meaning = "The test's name in the database, as --tournament.", .role = Role::Name,
   .apply = [](Config& c, const Value& v) { c.tournament.name = S(v); }},
  {.toml = "tournament.format", .flag = "-tournament", .type = T::Choice,
   .choices = &choice_names<TournamentFormat>, .fallback = "round-robin",
   .meaning = "round-robin: every pair of engines meets each round; gauntlet: the first "
              "`seeds` engines play every other. Any other word is refused, naming the choices.",
   .cutechess = differs("also knockout and pyramid, refused here"),
   .fastchess = differs("spelled roundrobin, read as round-robin"), .role = Role::Match,
   .custom = CustomFlag, .apply = [](Config& c, const Value& v) {
     c.tournament.format = C<TournamentFormat>(v);
   }},
  {.toml = "tournament.seeds", .flag = "-seeds", .type = T::Integer, .min = 1, .max = kIntMax,
   .fallback = "1", .meaning = "Gauntlet: the first N engines each play every other engine.",
   .cutechess = same, .fastchess = same, .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.tournament.seeds = N(v); }},
  {.toml = "tournament.rounds", .flag = "-rounds", .type = T::Integer, .min = 1, .max = kIntMax,
   .fallback = "1 (a fastchess line: 2)",
   .meaning = "How many times the whole set of encounters is played.",
   .cutechess = differs("multiplies the rounds: -games N -rounds R is N x R games per "
                        "encounter, each its own opening unless -repeat"),
   .fastchess = same_as("rounds of -games games (one opening each)"), .role = Role::Match,
   .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.tournament.rounds = N(v); }},
  {.toml = "tournament.games", .flag = "-games", .type = T::Integer, .min = 1, .max = kIntMax,
   .fallback = "1 (TOML: 2; a fastchess line: 2)",
   .meaning = "Games per encounter and round; with repeat, pairs of games (one opening, colours "
              "reversed). A cutechess-cli line keeps cutechess's meaning, a fastchess line "
              "fastchess's: -games 2 plays each round as a pair from one opening.",
   .cutechess = differs("games per encounter, each its own opening unless -repeat"),
   .fastchess = differs("games per round, 1 or 2, from one opening (a larger -games is swapped "
                        "with -rounds)"),
   .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.tournament.games_per_encounter = N(v); }},
  {.toml = "tournament.repeat", .flag = "-repeat", .type = T::Boolean, .placeholder = "[N]",
   .fallback = "false (TOML: true)",
   .meaning = "Both games of a pair share an opening; N is 1 or 2.",
   .cutechess = differs("each opening is played N times (default 2) in a row"),
   .fastchess = same_as("-games 2 (N: -games N)"), .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.tournament.repeat = B(v); }},
  {.toml = "tournament.concurrency", .flag = "-concurrency", .knightly = "--concurrency",
   .commands = kAll, .type = T::Integer, .min = 1, .max = 1024, .fallback = "1",
   .meaning = "Games this worker plays at once. Not part of the match: another value resumes "
              "it, and every worker may differ.",
   .cutechess = same,
   .fastchess = differs("at most the CPU count without -force-concurrency; Knightly has no such "
                        "limit"),
   .apply = [](Config& c, const Value& v) { c.tournament.concurrency = N(v); }},
  {.toml = "tournament.seed", .flag = "-srand", .knightly = "--seed", .commands = CommandSprt,
   .type = T::Unsigned, .placeholder = "N",
   .fallback = "chosen at the start and stored (sprt: from the test's identity)",
   .meaning = "The seed of everything random in the schedule: opening order, random plies, "
              "Chess960 positions. 0 is a seed like any other: two runs with -srand 0 play the "
              "same openings.",
   .cutechess = differs("a 32-bit seed of its own generator: the same number gives other "
                        "openings than in Knightly"),
   .fastchess = differs("the same range; its own generator, so other openings"),
   .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.tournament.seed = std::get<std::uint64_t>(v); }},
  {.knightly = "--max-games", .commands = CommandSprt, .type = T::Integer, .min = 2,
   .max = 100'000'000, .fallback = "20000",
   .meaning = "The most games the test plays (in pairs) before it stops undecided.",
   .role = Role::Match, .custom = CustomSprt},
  {.toml = "tournament.variant", .flag = "-variant", .type = T::Choice,
   .choices = &choice_names<Variant>, .fallback = "standard",
   .meaning = "fischerandom: Chess960 (UCI_Chess960 for every UCI engine, a 960 position per "
              "pair from the seed unless a book gives them, [Variant \"fischerandom\"]).",
   .cutechess = differs("many other variants, refused here"), .fastchess = same,
   .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.tournament.variant = C<Variant>(v); }},
  {.toml = "openings.dfrc", .flag = "-dfrc", .type = T::Flag, .fallback = "false",
   .meaning = "With fischerandom and no book: Double Fischer Random start positions.",
   .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.openings.dfrc = B(v); }},
  {.toml = "tournament.noswap", .flag = "-noswap", .type = T::Flag, .fallback = "false",
   .meaning = "The first engine of an encounter keeps White.", .cutechess = same,
   .fastchess = same, .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.tournament.swap_sides = !B(v); }},
  {.toml = "tournament.reverse", .flag = "-reverse", .type = T::Flag, .fallback = "false",
   .meaning = "Every game with the colours the other way round.", .cutechess = same,
   .fastchess = same, .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.tournament.reverse_sides = B(v); }},
  {.toml = "tournament.tc", .knightly = "--tc", .commands = CommandSprt, .type = T::Text,
   .placeholder = "TC",
   .meaning = "The default time control of every engine (command lines: -each tc=).",
   .role = Role::Match, .custom = CustomToml | CustomSprt},
  {.toml = "tournament.st", .type = T::Number,
   .meaning = "The default fixed time per move, seconds (command lines: -each st=).",
   .role = Role::Match, .custom = CustomToml},
  {.toml = "tournament.depth", .knightly = "--depth", .commands = CommandSprt,
   .type = T::Integer, .min = 1, .max = 1000,
   .meaning = "The default depth limit (command lines: -each depth=).", .role = Role::Match,
   .custom = CustomToml | CustomSprt},
  {.toml = "tournament.nodes", .knightly = "--nodes", .commands = CommandSprt,
   .type = T::Integer, .min = 1, .max = std::numeric_limits<std::int64_t>::max(),
   .meaning = "The default node limit (command lines: -each nodes=).", .role = Role::Match,
   .custom = CustomToml | CustomSprt},
  {.toml = "tournament.time_margin", .type = T::Integer, .min = 0, .max = kHour,
   .fallback = "0",
   .meaning = "The default time margin, ms (command lines: -each timemargin=).",
   .role = Role::Match, .custom = CustomToml},
  {.toml = "tournament.recover", .flag = "-recover", .type = T::Flag,
   .fallback = "false (TOML: true)",
   .meaning = "Restart an engine that crashed or stalled and go on; without it a crash ends "
              "the match once the running games are stored.",
   .cutechess = same, .fastchess = same,
   .apply = [](Config& c, const Value& v) { c.tournament.recover = B(v); }},
  {.toml = "tournament.wait_ms", .flag = "-wait", .type = T::Integer, .min = 0, .max = kHour,
   .placeholder = "MS", .fallback = "0",
   .meaning = "Milliseconds a worker waits before each game.", .cutechess = same,
   .fastchess = same,
   .apply = [](Config& c, const Value& v) { c.tournament.wait_ms = N(v); }},
  {.toml = "tournament.affinity", .flag = "-use-affinity", .type = T::Words,
   .placeholder = "[CPUS]", .fallback = "false",
   .meaning = "Each worker and the engines it starts get CPUs of their own (from the list, "
              "3,5,7-11, or all).",
   .fastchess = same, .custom = CustomToml | CustomFlag},
  {.toml = "tournament.startup_ms", .flag = "-startup-ms", .type = T::Integer, .min = 1,
   .max = kHour, .placeholder = "MS", .fallback = "10000",
   .meaning = "Milliseconds an engine may take from its start to uciok.", .fastchess = same,
   .apply = [](Config& c, const Value& v) { c.tournament.timeouts.startup_ms = I(v); }},
  {.toml = "tournament.ucinewgame_ms", .flag = "-ucinewgame-ms", .type = T::Integer, .min = 1,
   .max = kHour, .placeholder = "MS", .fallback = "60000",
   .meaning = "Milliseconds for ucinewgame + isready before each game.", .fastchess = same,
   .apply = [](Config& c, const Value& v) { c.tournament.timeouts.ucinewgame_ms = I(v); }},
  {.toml = "tournament.ping_ms", .flag = "-ping-ms", .type = T::Integer, .min = 1, .max = kHour,
   .placeholder = "MS", .fallback = "60000",
   .meaning = "Milliseconds to answer the isready after the options are set.",
   .fastchess = same,
   .apply = [](Config& c, const Value& v) { c.tournament.timeouts.ping_ms = I(v); }},
  {.toml = "tournament.check_mate_pvs", .flag = "-check-mate-pvs", .type = T::Flag,
   .fallback = "false",
   .meaning = "A mate score's PV must end in mate; otherwise a warning in fastchess's words.",
   .fastchess = same,
   .apply = [](Config& c, const Value& v) { c.tournament.check_mate_pvs = B(v); }},
  {.toml = "tournament.reference_nps", .knightly = "--reference-nps", .commands = CommandSprt,
   .type = T::Number, .min = 1, .max = std::numeric_limits<std::int64_t>::max(),
   .placeholder = "NPS", .fallback = "none (not scaled)",
   .meaning = "fishtest's scaling: each worker benches the last engine (a test's base) and "
              "multiplies every time control by reference_nps / its nps.",
   .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.tournament.reference_nps = D(v); }},

  // ---------------------------------------------------------------- openings
  {.toml = "openings.file", .flag = "-openings", .word = "file", .knightly = "--book",
   .commands = CommandSprt, .type = T::Text, .placeholder = "FILE",
   .fallback = "none (the start position; sprt: 4 random plies)",
   .meaning = "The opening book: EPD, PGN or Polyglot (.bin), each pair of games one opening.",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomFlag | CustomSprt,
   .apply = [](Config& c, const Value& v) { c.openings.file = S(v); }},
  {.toml = "openings.format", .flag = "-openings", .word = "format", .type = T::Choice,
   .choices = &choice_names<BookFormat>, .fallback = "from the extension",
   .meaning = "epd, pgn or bin (Polyglot: weighted random book moves per pair with "
              "order=random, the heaviest with order=sequential, at most plies=).",
   .cutechess = differs("epd or pgn; pgn when not given"),
   .fastchess = differs("epd or pgn; from the extension"), .role = Role::Match,
   .custom = CustomFlag, .apply = [](Config& c, const Value& v) {
     c.openings.format = C<BookFormat>(v);
   }},
  {.toml = "openings.order", .flag = "-openings", .word = "order", .type = T::Choice,
   .choices = &choice_names<BookOrder>, .fallback = "sequential (TOML: random)",
   .meaning = "random (drawn from the seed) or sequential.", .cutechess = same,
   .fastchess = same, .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.openings.order = C<BookOrder>(v); }},
  {.toml = "openings.start", .flag = "-openings", .word = "start", .type = T::Integer, .min = 1,
   .max = kIntMax, .fallback = "1", .meaning = "The 1-based index of the first opening used.",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.openings.start = N(v); }},
  {.toml = "openings.plies", .flag = "-openings", .word = "plies", .type = T::Integer, .min = 0,
   .max = kIntMax, .fallback = "0 (all)", .meaning = "At most N plies of a book line.",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.openings.plies = N(v); }},
  {.toml = "openings.random_plies", .flag = "-openings", .word = "random_plies",
   .knightly = "--random-plies", .commands = CommandSprt, .type = T::Integer, .min = 0,
   .max = 200, .fallback = "0 (sprt without a book: 4)",
   .meaning = "N random legal plies after the opening, the same for both games of a pair.",
   .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.openings.random_plies = N(v); }},
  {.flag = "-openings", .word = "policy", .type = T::Choice, .choices = &policies,
   .fallback = "default",
   .meaning = "default: a new opening for every game pair; round means the same for two "
              "engines playing pairs and is refused otherwise.",
   .cutechess = differs("default, encounter or round"), .fastchess = same_as("round only"),
   .role = Role::Match, .custom = CustomFlag},
  {.flag = "-bookmode", .type = T::Choice, .choices = &book_modes,
   .cutechess = differs("reads a Polyglot book from RAM or disk"),
   .no_effect = "-bookmode: no effect; a Polyglot book (-openings file=F.bin) is read into "
                "memory"},

  // ---------------------------------------------------------------- adjudication
  {.toml = "tournament.maxmoves", .type = T::Integer, .min = 0, .max = kIntMax,
   .fallback = "0 (none)", .meaning = "As [adjudication] maxmoves.", .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.tournament.adjudication.max_moves = N(v); }},
  {.toml = "adjudication.maxmoves", .flag = "-maxmoves", .type = T::Integer, .min = 0,
   .max = kIntMax, .fallback = "0 (none)",
   .meaning = "A draw after N full moves (TOML: also [tournament] maxmoves).",
   .cutechess = same, .fastchess = same, .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.tournament.adjudication.max_moves = N(v); }},
  {.toml = "adjudication.draw.movenumber", .flag = "-draw", .word = "movenumber",
   .type = T::Integer, .min = 0, .max = kIntMax, .fallback = "0",
   .meaning = "Draw adjudication from this full move on.", .cutechess = differs("required"),
   .fastchess = same, .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) {
     c.tournament.adjudication.draw.move_number = N(v);
   }},
  {.toml = "adjudication.draw.movecount", .flag = "-draw", .word = "movecount",
   .type = T::Integer, .min = 1, .max = kIntMax, .fallback = "1",
   .meaning = "Consecutive moves of each side within the score.",
   .cutechess = differs("required"), .fastchess = same, .role = Role::Match,
   .custom = CustomFlag, .apply = [](Config& c, const Value& v) {
     c.tournament.adjudication.draw.move_count = N(v);
   }},
  {.toml = "adjudication.draw.score", .flag = "-draw", .word = "score", .type = T::Integer,
   .min = 0, .max = kIntMax,
   .meaning = "Both engines' scores within this many centipawns (required): the game is a "
              "draw.",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.tournament.adjudication.draw.score_cp = N(v); }},
  {.toml = "adjudication.resign.movecount", .flag = "-resign", .word = "movecount",
   .type = T::Integer, .min = 1, .max = kIntMax, .fallback = "1",
   .meaning = "Consecutive moves at or below -score.", .cutechess = differs("required"),
   .fastchess = same, .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) {
     c.tournament.adjudication.resign.move_count = N(v);
   }},
  {.toml = "adjudication.resign.score", .flag = "-resign", .word = "score", .type = T::Integer,
   .min = 1, .max = kIntMax,
   .meaning = "An engine at or below -score centipawns for movecount moves loses (required).",
   .cutechess = same, .fastchess = same, .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.tournament.adjudication.resign.score_cp = N(v); }},
  {.toml = "adjudication.resign.twosided", .flag = "-resign", .word = "twosided",
   .type = T::Boolean, .fallback = "false",
   .meaning = "The opponent must also report at least +score.", .cutechess = same,
   .fastchess = same, .role = Role::Match, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) {
     c.tournament.adjudication.resign.two_sided = B(v);
   }},
  {.toml = "adjudication.tablebase.path", .flag = "-tb", .type = T::Text,
   .placeholder = "DIRS",
   .meaning = "Syzygy adjudication through the tables in these ':'-separated directories "
              "(fastchess's result strings, SyzygyTB).",
   .cutechess = same, .fastchess = same, .role = Role::Match,
   .apply = [](Config& c, const Value& v) {
     c.tournament.adjudication.tablebase.enabled = true;
     c.tournament.adjudication.tablebase.path = S(v);
   }},
  {.toml = "adjudication.tablebase.pieces", .flag = "-tbpieces", .type = T::Integer, .min = 0,
   .max = 32, .fallback = "0: what the tables hold",
   .meaning = "Probe positions with at most N pieces (needs -tb).", .cutechess = same,
   .fastchess = same, .role = Role::Match,
   .apply = [](Config& c, const Value& v) {
     c.tournament.adjudication.tablebase.max_pieces = N(v);
   }},
  {.toml = "adjudication.tablebase.ignore50", .flag = "-tbignore50", .type = T::Flag,
   .fallback = "false",
   .meaning = "A cursed win or blessed loss counts as a win or loss (needs -tb).",
   .cutechess = same, .fastchess = same, .role = Role::Match,
   .apply = [](Config& c, const Value& v) {
     c.tournament.adjudication.tablebase.ignore_50 = B(v);
   }},
  {.toml = "adjudication.tablebase.result", .flag = "-tbadjudicate", .type = T::Choice,
   .choices = &choice_names<TablebaseResult>, .fallback = "BOTH",
   .meaning = "Which results are adjudicated (needs -tb).", .fastchess = same,
   .role = Role::Match, .apply = [](Config& c, const Value& v) {
     const auto r = C<TablebaseResult>(v);
     c.tournament.adjudication.tablebase.win_loss = r != TablebaseResult::Draw;
     c.tournament.adjudication.tablebase.draw = r != TablebaseResult::WinLoss;
   }},

  // ---------------------------------------------------------------- SPRT
  {.toml = "sprt.elo0", .flag = "-sprt", .word = "elo0", .knightly = "--elo0",
   .commands = CommandSprt, .type = T::Number, .fallback = "0",
   .meaning = "H0's Elo; an -sprt (or [sprt]) stops the match at a decision.",
   .cutechess = same, .fastchess = same, .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.sprt.elo0 = D(v); }},
  {.toml = "sprt.elo1", .flag = "-sprt", .word = "elo1", .knightly = "--elo1",
   .commands = CommandSprt, .type = T::Number, .fallback = "5", .meaning = "H1's Elo.",
   .cutechess = same, .fastchess = same, .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.sprt.elo1 = D(v); }},
  {.toml = "sprt.alpha", .flag = "-sprt", .word = "alpha", .knightly = "--alpha",
   .commands = CommandSprt, .type = T::Number, .fallback = "0.05",
   .meaning = "The false positive rate.", .cutechess = same, .fastchess = same,
   .role = Role::Match, .apply = [](Config& c, const Value& v) { c.sprt.alpha = D(v); }},
  {.toml = "sprt.beta", .flag = "-sprt", .word = "beta", .knightly = "--beta",
   .commands = CommandSprt, .type = T::Number, .fallback = "0.05",
   .meaning = "The false negative rate.", .cutechess = same, .fastchess = same,
   .role = Role::Match, .apply = [](Config& c, const Value& v) { c.sprt.beta = D(v); }},
  {.toml = "sprt.model", .flag = "-sprt", .word = "model", .knightly = "--model",
   .commands = CommandSprt, .type = T::Choice, .choices = &choice_names<stats::EloModel>,
   .fallback = "normalized; cutechess on a cutechess-cli line",
   .meaning = "The LLR's model: normalized or logistic (fishtest's, on pairs when the "
              "schedule has them), bayesian (fastchess's, on games), cutechess (cutechess-cli's "
              "BayesElo with the sample's draw Elo, on games). A cutechess-cli line's -sprt "
              "is cutechess's test, a fastchess line's fastchess's.",
   .cutechess = absent_but("no model=: always its own BayesElo test, cutechess here"),
   .fastchess = same_as("normalized, logistic or bayesian"), .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.sprt.model = C<stats::EloModel>(v); }},

  // ---------------------------------------------------------------- output
  {.toml = "output.database", .knightly = "--db", .commands = kAll, .type = T::Text,
   .placeholder = "TARGET", .fallback = "knightly.db",
   .meaning = "The database: an SQLite file, or postgresql://USER@HOST:PORT/NAME. Not part of "
              "the match (nor its name).",
   .apply = [](Config& c, const Value& v) { c.output.database = S(v); }},
  {.toml = "output.database", .knightly = "-db", .commands = CommandPlay, .type = T::Text,
   .placeholder = "TARGET", .fallback = "knightly.db", .meaning = "The same as --db.",
   .apply = [](Config& c, const Value& v) { c.output.database = S(v); }},
  {.toml = "output.pgn", .flag = "-pgnout", .word = "file", .knightly = "--pgn",
   .commands = CommandRun | CommandPlay, .type = T::Text, .placeholder = "FILE",
   .fallback = "none; -pgnout without a file: fastchess_DATE_TIME.pgn",
   .meaning = "The PGN file, derived from the database: the games in schedule order after "
              "what the file held before the match (append=true) or alone (append=false).",
   .cutechess = differs("-pgnout FILE [min] [fi]: the same file and minimal form; Knightly never "
                        "writes an unfinished game, so fi changes nothing"),
   .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn = S(v); }},
  {.toml = "output.pgn_notation", .flag = "-pgnout", .word = "notation", .type = T::Choice,
   .choices = &notation_names, .fallback = "san", .meaning = "The moves' notation.",
   .fastchess = same, .custom = CustomFlag, .apply = [](Config& c, const Value& v) {
     c.output.pgn_options.notation = C<PgnNotation>(v);
   }},
  {.toml = "output.pgn_fields", .flag = "-pgnout", .word = "nodes", .type = T::Boolean,
   .fallback = "false", .meaning = "n= in each move's comment (TOML: pgn_fields = [\"nodes\"]).",
   .fastchess = same, .custom = CustomToml | CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_options.nodes = B(v); }},
  {.flag = "-pgnout", .word = "seldepth", .type = T::Boolean, .fallback = "false",
   .meaning = "sd= in each move's comment.", .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_options.seldepth = B(v); }},
  {.flag = "-pgnout", .word = "nps", .type = T::Boolean, .fallback = "false",
   .meaning = "nps= in each move's comment.", .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_options.nps = B(v); }},
  {.flag = "-pgnout", .word = "hashfull", .type = T::Boolean, .fallback = "false",
   .meaning = "hashfull= in each move's comment.", .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_options.hashfull = B(v); }},
  {.flag = "-pgnout", .word = "tbhits", .type = T::Boolean, .fallback = "false",
   .meaning = "tbhits= in each move's comment.", .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_options.tbhits = B(v); }},
  {.flag = "-pgnout", .word = "timeleft", .type = T::Boolean, .fallback = "false",
   .meaning = "tl= (the clock after the move) in each move's comment.", .fastchess = same,
   .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_options.timeleft = B(v); }},
  {.flag = "-pgnout", .word = "latency", .type = T::Boolean, .fallback = "false",
   .meaning = "latency= (measured minus reported time) in each move's comment.",
   .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_options.latency = B(v); }},
  {.flag = "-pgnout", .word = "pv", .type = T::Boolean, .fallback = "false",
   .meaning = "pv= (the principal variation) in each move's comment.", .fastchess = same,
   .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_options.pv = B(v); }},
  {.toml = "output.pgn_min", .flag = "-pgnout", .word = "min", .type = T::Boolean,
   .fallback = "false", .meaning = "The minimal form: tags and moves, no comments.",
   .cutechess = absent_but("-pgnout FILE min"), .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_options.min = B(v); }},
  {.toml = "output.pgn_append", .flag = "-pgnout", .word = "append", .type = T::Boolean,
   .fallback = "true",
   .meaning = "true: a new match's games go after what the file holds; false: a new match "
              "empties it first. Either way the match's part equals `knightly export`.",
   .cutechess = absent_but("always appends"), .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_append = B(v); }},
  {.toml = "output.pgn_match_line", .flag = "-pgnout", .word = "match_line", .type = T::Text,
   .placeholder = "REGEX",
   .meaning = "The engine's output lines this regular expression matches go into the PGN as "
              "comments (OpenBench: '^info string pgncomment .*').",
   .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.pgn_options.match_line = S(v); }},
  {.toml = "output.epd", .flag = "-epdout", .word = "file", .type = T::Text,
   .placeholder = "FILE", .fallback = "none; -epdout without a file: fastchess_DATE_TIME.epd",
   .meaning = "The final position of every game, a FEN per line, in schedule order.",
   .cutechess = same_as("-epdout FILE"), .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.epd = S(v); }},
  {.toml = "output.epd_append", .flag = "-epdout", .word = "append", .type = T::Boolean,
   .fallback = "true", .meaning = "As the PGN file's append=.", .fastchess = same,
   .custom = CustomFlag, .apply = [](Config& c, const Value& v) { c.output.epd_append = B(v); }},
  {.toml = "output.event", .flag = "-event", .type = T::Text, .placeholder = "NAME",
   .fallback = "the match's name (a cutechess-cli line: ?, a fastchess line: Fastchess "
               "Tournament)",
   .meaning = "The PGN Event tag.", .cutechess = same_as("one word"),
   .fastchess = same_as("several words are joined"), .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.event = S(v); }},
  {.toml = "output.site", .flag = "-site", .type = T::Text, .placeholder = "SITE",
   .fallback = "?", .meaning = "The PGN Site tag.", .cutechess = same, .fastchess = same,
   .apply = [](Config& c, const Value& v) { c.output.site = S(v); }},
  {.toml = "output.sync", .knightly = "--sync", .commands = kAll, .type = T::Choice,
   .choices = &choice_names<SyncMode>, .fallback = "full",
   .meaning = "full: every finished game is fsynced; normal: survives a crash of the runner, "
              "not a power cut, and is faster.",
   .apply = [](Config& c, const Value& v) { c.output.sync = C<SyncMode>(v); }},
  {.toml = "output.format", .flag = "-output", .word = "format", .type = T::Choice,
   .choices = &choice_names<OutputStyle>,
   .fallback = "play: cutechess, or fastchess for a fastchess line; run and sprt: knightly",
   .meaning = "What the run prints: cutechess-cli's lines, fastchess's, or knightly's status "
              "line.",
   .fastchess = same_as("cutechess or fastchess"), .apply = [](Config& c, const Value& v) {
     c.output.format = C<OutputStyle>(v);
   }},
  {.toml = "output.report_penta", .flag = "-report", .word = "penta", .type = T::Boolean,
   .fallback = "true (a cutechess-cli line: false)",
   .meaning = "The report and the SPRT from game pairs (pentanomial) when the schedule has "
              "them; false: from single games.",
   .fastchess = same, .role = Role::Match,
   .apply = [](Config& c, const Value& v) { c.output.report_penta = B(v); }},
  {.toml = "output.rating_interval", .flag = "-ratinginterval", .type = T::Integer, .min = 0,
   .max = kIntMax, .fallback = "0 (a fastchess line: 10)",
   .meaning = "Elo, LOS and LLR (fastchess: its results block) every N finished games; 0: at "
              "the end.",
   .cutechess = same, .fastchess = same,
   .apply = [](Config& c, const Value& v) { c.output.rating_interval = N(v); }},
  {.toml = "output.score_interval", .flag = "-scoreinterval", .type = T::Integer, .min = 0,
   .max = kIntMax, .fallback = "1",
   .meaning = "Score of A vs B every N finished games (cutechess output).",
   .cutechess = absent_but("after every game"), .fastchess = same,
   .apply = [](Config& c, const Value& v) { c.output.score_interval = N(v); }},
  {.toml = "output.log", .flag = "-log", .word = "file", .type = T::Text,
   .placeholder = "FILE", .meaning = "The runner's messages (and with engine=true every line "
                                     "to and from each engine).",
   .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.log_file = S(v); }},
  {.toml = "output.log_engine", .flag = "-log", .word = "engine", .type = T::Boolean,
   .fallback = "false", .meaning = "Every line to and from each engine in the log.",
   .fastchess = same, .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.log_engine = B(v); }},
  {.toml = "output.log_append", .flag = "-log", .word = "append", .type = T::Boolean,
   .fallback = "true", .meaning = "false: a new run empties the log first.", .fastchess = same,
   .custom = CustomFlag,
   .apply = [](Config& c, const Value& v) { c.output.log_append = B(v); }},
  {.flag = "-log", .word = "level", .type = T::Choice, .choices = &log_levels,
   .meaning = "Accepted: every line is written.", .fastchess = same, .custom = CustomFlag},
  {.flag = "-log", .word = "realtime", .type = T::Boolean,
   .meaning = "Accepted: lines are written as they happen.", .fastchess = same,
   .custom = CustomFlag},
  {.flag = "-log", .word = "compress", .type = T::Boolean,
   .meaning = "false only: compressed logs are refused.", .fastchess = same,
   .custom = CustomFlag},
  {.toml = "output.crc32", .flag = "-crc32", .word = "pgn", .type = T::Boolean,
   .fallback = "false", .meaning = "Prints PGN file F has CRC32: X at the end (fishtest).",
   .fastchess = same, .apply = [](Config& c, const Value& v) { c.output.crc32 = B(v); }},

  // ---------------------------------------------------------------- the tools' other options
  {.flag = "-outcomeinterval", .type = T::Integer, .min = 0, .max = kIntMax,
   .cutechess = differs("outcome counts every N games"),
   .refused = "not supported; `knightly query terminations` and `knightly query standings` "
              "give these figures"},
  {.flag = "-resultformat", .type = T::Text,
   .cutechess = differs("the result table's format"),
   .refused = "not supported; `knightly query terminations` and `knightly query standings` "
              "give these figures"},
  {.flag = "-debug", .type = T::Words,
   .cutechess = differs("every engine line on stdout"),
   .fastchess = differs("refused, with a hint to -log"),
   .refused = "not supported; -log file=FILE engine=true writes every line to and from each "
              "engine (or --log-dir DIR, one file per engine)"},
  {.flag = "-show-latency", .type = T::Flag, .fastchess = differs("latency per engine"),
   .refused = "not supported; -pgnout ... latency=true writes each move's latency"},
  {.flag = "-strict", .type = T::Flag, .fastchess = differs("stops the match at any warning"),
   .refused = "not supported: a warning never stops a match; an engine that misbehaves loses "
              "its own game"},
  {.flag = "-autosaveinterval", .type = T::Integer, .min = 0, .max = kIntMax,
   .fastchess = differs("saves its state every N games"),
   .no_effect = "-autosaveinterval: no effect; every game is stored in the database as it ends"},
  {.flag = "-config", .type = T::Words, .placeholder = "file= outname= discard= stats=",
   .fastchess = differs("resumes from a JSON state"), .custom = CustomFlag,
   .refused = "file=: fastchess's saved state is not read; Knightly resumes a match from its "
              "database when the same command is run again",
   .no_effect = "-config: no effect; the database holds the match's state (run the same "
                "command again to resume it)"},
  {.flag = "-quick", .type = T::Words, .placeholder = "cmd= cmd= book=",
   .meaning = "fastchess's preset: tc=10+0.1, 25000 rounds of pairs, concurrency = CPUs - 2, "
              "-recover, -draw movenumber=30 movecount=8 score=8, a random book order, "
              "cutechess output.",
   .fastchess = same, .role = Role::Match, .custom = CustomFlag},
  {.flag = "-testEnv", .type = T::Flag,
   .meaning = "Accepted: the output is already what fishtest and OpenBench read.",
   .fastchess = same_as("fishtest's and OpenBench's mode")},
  {.flag = "-force-concurrency", .type = T::Flag,
   .meaning = "Accepted: Knightly has no CPU-count limit.",
   .fastchess = same_as("allows a concurrency above the CPU count")},
  {.flag = "-version", .type = T::Flag, .cutechess = differs("prints the version"),
   .fastchess = differs("prints the version"),
   .refused = "not an option of a match; see `knightly --version`"},
  {.flag = "-help", .type = T::Flag, .cutechess = differs("prints the usage"),
   .fastchess = differs("prints the usage"),
   .refused = "not an option of a match; see `knightly play --help`"},
  {.flag = "-engines", .type = T::Flag, .cutechess = differs("lists engines.json"),
   .refused = "not an option of a match; Knightly has no engines.json"},

  // ---------------------------------------------------------------- the worker (not the match)
  {.knightly = "--restart", .commands = kAll, .type = T::Flag,
   .meaning = "Start the named match over (the old one is kept under its id).",
   .custom = CustomFlag | CustomSprt},
  {.knightly = "--quiet", .commands = kAll, .type = T::Flag,
   .meaning = "No per-game lines, only the summary.", .custom = CustomFlag | CustomSprt},
  {.knightly = "--log-dir", .commands = kAll, .type = T::Text, .placeholder = "DIR",
   .meaning = "One log per engine: DIR/NAME.log and NAME.stderr.log.",
   .custom = CustomFlag | CustomSprt},
  {.knightly = "--cache", .commands = kAll, .type = T::Text, .placeholder = "DIR",
   .fallback = "$KNIGHTLY_CACHE, else ~/.cache/knightly",
   .meaning = "Where engines built from source are fetched and built, each kept for later runs.",
   .custom = CustomFlag | CustomSprt},
  {.knightly = "--lease", .commands = kAll, .type = T::Number, .placeholder = "SECONDS",
   .fallback = "30",
   .meaning = "How long a claimed pair stays this worker's without a heartbeat (at least 0.2).",
   .custom = CustomFlag | CustomSprt},
  {.knightly = "--on-stop", .commands = kAll, .type = T::Choice, .choices = &on_stop_words,
   .fallback = "finish",
   .meaning = "What a worker does with its game in progress when the match is decided or "
              "stopped.",
   .custom = CustomFlag | CustomSprt},
  {.knightly = "--stall-timeout", .commands = kAll, .type = T::Number, .placeholder = "SECONDS",
   .meaning = "How long an engine without a clock (depth or nodes) may think before it stalls.",
   .custom = CustomFlag | CustomSprt},
  {.knightly = "--perf-stats", .commands = kAll, .type = T::Flag,
   .meaning = "Ends the output with the runner's own CPU, memory and latency figures.",
   .custom = CustomFlag | CustomSprt},
};
// clang-format on

std::string type_placeholder(const MatchKey& k) {
  if (!k.placeholder.empty()) return std::string(k.placeholder);
  switch (k.type) {
    case T::Integer:
    case T::Unsigned:
      return "N";
    case T::Number:
      return "X";
    case T::Boolean:
      return "true|false";
    case T::Choice: {
      std::string out;
      for (const auto& c : k.choices()) out += (out.empty() ? "" : "|") + c;
      return out;
    }
    case T::Text:
      return "TEXT";
    default:
      return "";
  }
}

// "-sprt elo0=X", "-concurrency N", "-recover".
std::string flag_usage(const MatchKey& k) {
  std::string out(k.flag);
  if (!k.word.empty()) {
    const std::string ph = type_placeholder(k);
    return out + " " + std::string(k.word) + (k.type == T::Flag ? "" : "=" + ph);
  }
  if (k.type == T::Flag) return out;
  return out + " " + type_placeholder(k);
}

std::string knightly_usage(const MatchKey& k) {
  if (k.type == T::Flag) return std::string(k.knightly);
  return std::string(k.knightly) + " " + type_placeholder(k);
}

// TOML "tournament.concurrency" as docs write it: "[tournament] concurrency".
std::string toml_text(std::string_view toml) {
  const auto dot = toml.find('.');
  if (dot == std::string_view::npos) return toml == "engine" ? "[[engine]]" : std::string(toml);
  std::string table(toml.substr(0, dot));
  std::string key(toml.substr(dot + 1));
  if (table == "engine") return "[[engine]] " + key;
  const auto second = key.find('.');
  if (second != std::string::npos)  // adjudication.draw.score: a key of an inline table
    return "[" + table + "] " + key.substr(0, second) + " = { " + key.substr(second + 1) + " }";
  return "[" + table + "] " + key;
}

std::string markdown_cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// ---------------------------------------------------------------- identity

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The shortest text that reads back as `v`, as a TOML float.
std::string number(double v) {
  char buf[64];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // a TOML float
  return s;
}

std::string flag_text(bool b) {
  return b ? "true" : "false";
}

void limits_lines(std::ostringstream& out, const EngineLimits& l) {
  if (l.tc) {
    // st with tc=inf keeps its time per move: both are part of what the engine is told.
    if (l.tc->movetime_ms > 0) out << "st = " << number(double(l.tc->movetime_ms) / 1000.0) << "\n";
    if (l.tc->infinite || l.tc->movetime_ms == 0)
      out << "tc = " << quoted(format_time_control(*l.tc)) << "\n";
  }
  if (l.depth) out << "depth = " << *l.depth << "\n";
  if (l.nodes) out << "nodes = " << *l.nodes << "\n";
  if (l.time_margin_ms) out << "time_margin = " << l.time_margin_ms << "\n";
}

}  // namespace

std::span<const MatchKey> match_schema() {
  return kSchema;
}

const MatchKey* key_by_toml(std::string_view toml) {
  for (const auto& k : kSchema)
    if (k.toml == toml) return &k;
  return nullptr;
}

std::vector<const MatchKey*> keys_by_flag(std::string_view flag) {
  std::vector<const MatchKey*> out;
  for (const auto& k : kSchema)
    if (!flag.empty() && k.flag == flag) out.push_back(&k);
  return out;
}

const MatchKey* key_by_knightly(std::string_view flag, Command command) {
  for (const auto& k : kSchema)
    if (!flag.empty() && k.knightly == flag && (k.commands & command)) return &k;
  return nullptr;
}

std::vector<std::string> toml_keys_of(std::string_view table) {
  std::vector<std::string> out;
  for (const auto& k : kSchema) {
    if (!k.toml.starts_with(table) || k.toml.size() <= table.size() || k.toml[table.size()] != '.')
      continue;
    std::string rest(k.toml.substr(table.size() + 1));
    rest = rest.substr(0, rest.find('.'));
    if (std::find(out.begin(), out.end(), rest) == out.end()) out.push_back(rest);
  }
  return out;
}

std::vector<std::string> words_of(std::string_view flag) {
  std::vector<std::string> out;
  for (const auto* k : keys_by_flag(flag))
    if (!k->word.empty() && std::find(out.begin(), out.end(), k->word) == out.end())
      out.emplace_back(k->word);
  return out;
}

std::vector<std::string> all_flags() {
  std::vector<std::string> out;
  auto add = [&](std::string_view f) {
    if (!f.empty() && std::find(out.begin(), out.end(), f) == out.end()) out.emplace_back(f);
  };
  for (const auto& k : kSchema) {
    add(k.flag);
    if (k.commands & CommandPlay) add(k.knightly);
  }
  return out;
}

std::string expected_text(const MatchKey& k) {
  switch (k.type) {
    case T::Integer:
      if (k.max == kIntMax || k.max == std::numeric_limits<std::int64_t>::max())
        return "an integer >= " + std::to_string(k.min);
      return "an integer in [" + std::to_string(k.min) + ", " + std::to_string(k.max) + "]";
    case T::Unsigned:
      return "an integer in [0, 18446744073709551615]";
    case T::Number:
      if (k.max <= k.min) return "a number";
      if (k.max == std::numeric_limits<std::int64_t>::max())
        return "a number >= " + std::to_string(k.min);
      return "a number in [" + std::to_string(k.min) + ", " + std::to_string(k.max) + "]";
    case T::Boolean:
    case T::Flag:
      return "true or false";
    case T::Choice: {
      const auto& names = k.choices();
      std::string list;
      for (std::size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
      return list;
    }
    default:
      return "text";
  }
}

std::expected<Value, std::string> check_value(const MatchKey& k, Value v) {
  if (k.type == T::Integer) {
    const auto i = std::get<std::int64_t>(v);
    if (i < k.min || i > k.max)
      return std::unexpected("value " + std::to_string(i) + " is out of range [" +
                             std::to_string(k.min) + ", " + std::to_string(k.max) + "]");
  }
  if (k.type == T::Number) {
    const double d = std::get<double>(v);
    if (!std::isfinite(d)) return std::unexpected("expected a finite number");
    if (k.max > k.min && (d < double(k.min) || d > double(k.max)))
      return std::unexpected("value " + number(d) + " is not " + expected_text(k));
  }
  return v;
}

std::expected<Value, std::string> parse_value(const MatchKey& k, std::string_view text) {
  const std::string t(text);
  switch (k.type) {
    case T::Integer: {
      std::int64_t v = 0;
      auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (t.empty() || p != t.data() + t.size() ||
          (ec != std::errc() && ec != std::errc::result_out_of_range))
        return std::unexpected("'" + t + "' is not an integer");
      if (ec == std::errc::result_out_of_range)
        return std::unexpected("value " + t + " is out of range [" + std::to_string(k.min) + ", " +
                               std::to_string(k.max) + "]");
      return check_value(k, v);
    }
    case T::Unsigned: {
      std::uint64_t v = 0;
      auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (t.empty() || ec != std::errc() || p != t.data() + t.size())
        return std::unexpected("'" + t + "' is not " + expected_text(k));
      return v;
    }
    case T::Number: {
      double v = 0;
      auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (t.empty() || ec != std::errc() || p != t.data() + t.size() || !std::isfinite(v))
        return std::unexpected("'" + t + "' is not a number");
      return check_value(k, v);
    }
    case T::Boolean:
    case T::Flag:
      if (t == "true") return true;
      if (t == "false") return false;
      return std::unexpected("expected true or false, got '" + t + "'");
    case T::Choice: {
      const auto& names = k.choices();
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == t) return static_cast<std::int64_t>(i);
      return std::unexpected(not_a_choice(t, names));
    }
    default:
      return t;
  }
}

std::string match_identity(const Config& config) {
  // Keys in a fixed order and form: two configs that define the same games give the same text.
  const auto& t = config.tournament;
  const auto& a = t.adjudication;
  std::ostringstream out;
  out << "# What defines the games of this match (runner/config/match_schema.h): another\n"
         "# concurrency, database, PGN file or output is the same match.\n";
  out << "[tournament]\n";
  out << "format = " << quoted(choice_name(t.format)) << "\n";
  if (t.format == TournamentFormat::Gauntlet) out << "seeds = " << t.seeds << "\n";
  out << "rounds = " << t.rounds << "\n";
  out << "games = " << t.games_per_encounter << "\n";
  out << "repeat = " << flag_text(t.repeat) << "\n";
  if (t.seed) out << "seed = " << *t.seed << "\n";
  out << "variant = " << quoted(choice_name(t.variant)) << "\n";
  out << "noswap = " << flag_text(!t.swap_sides) << "\n";
  out << "reverse = " << flag_text(t.reverse_sides) << "\n";
  if (t.reference_nps > 0) out << "reference_nps = " << number(t.reference_nps) << "\n";
  limits_lines(out, t.defaults);

  out << "\n[adjudication]\n";
  out << "maxmoves = " << a.max_moves << "\n";
  if (a.draw.enabled)
    out << "draw = { movenumber = " << a.draw.move_number << ", movecount = " << a.draw.move_count
        << ", score = " << a.draw.score_cp << " }\n";
  if (a.resign.enabled)
    out << "resign = { movecount = " << a.resign.move_count << ", score = " << a.resign.score_cp
        << ", twosided = " << flag_text(a.resign.two_sided) << " }\n";
  if (a.tablebase.enabled) {
    const auto result = a.tablebase.win_loss && a.tablebase.draw ? TablebaseResult::Both
                        : a.tablebase.win_loss                   ? TablebaseResult::WinLoss
                                                                 : TablebaseResult::Draw;
    out << "tablebase = { path = " << quoted(a.tablebase.path)
        << ", pieces = " << a.tablebase.max_pieces
        << ", ignore50 = " << flag_text(a.tablebase.ignore_50)
        << ", result = " << quoted(choice_name(result)) << " }\n";
  }

  const auto& o = config.openings;
  out << "\n[openings]\n";
  if (!o.file.empty()) {
    out << "file = " << quoted(o.file) << "\n";
    out << "format = " << quoted(choice_name(o.format)) << "\n";
    out << "order = " << quoted(choice_name(o.order)) << "\n";
    out << "start = " << o.start << "\n";
    out << "plies = " << o.plies << "\n";
  }
  out << "random_plies = " << o.random_plies << "\n";
  out << "dfrc = " << flag_text(o.dfrc) << "\n";

  // The pairs decide an SPRT unless the report is of single games.
  out << "\n[output]\nreport_penta = " << flag_text(config.output.report_penta) << "\n";

  if (config.sprt.enabled) {
    const auto& s = config.sprt;
    out << "\n[sprt]\n";
    out << "elo0 = " << number(s.elo0) << "\nelo1 = " << number(s.elo1) << "\n";
    out << "alpha = " << number(s.alpha) << "\nbeta = " << number(s.beta) << "\n";
    out << "model = " << quoted(choice_name(s.model)) << "\n";
  }

  for (const auto& e : config.engines) {
    out << "\n[[engine]]\n";
    out << "name = " << quoted(e.name) << "\n";
    if (e.builtin) {
      out << "builtin = true\n";
    } else {
      if (e.source) {
        // Its source, not the program a worker builds from it (whose path is the worker's).
        const EngineSource& s = *e.source;
        out << "repo = " << quoted(s.repo) << "\nref = " << quoted(s.ref) << "\n";
        out << "build = " << quoted(s.build) << "\n";
        if (!s.subdir.empty()) out << "subdir = " << quoted(s.subdir) << "\n";
        if (s.bench) out << "bench = " << *s.bench << "\n";
      } else {
        out << "command = " << quoted(e.command) << "\n";
      }
      if (!e.args.empty()) {
        out << "args = [";
        for (std::size_t i = 0; i < e.args.size(); ++i) out << (i ? ", " : "") << quoted(e.args[i]);
        out << "]\n";
      }
      if (!e.workdir.empty()) out << "workdir = " << quoted(e.workdir) << "\n";
      out << "proto = " << quoted(choice_name(e.protocol)) << "\n";
    }
    if (e.restart) out << "restart = true\n";
    if (e.ponder) out << "ponder = true\n";
    limits_lines(out, e.limits);
    if (!e.env.empty()) {
      out << "env = { ";
      bool first = true;
      for (const auto& [k, v] : e.env) {
        out << (first ? "" : ", ") << quoted(k) << " = " << quoted(v);
        first = false;
      }
      out << " }\n";
    }
    if (!e.options.empty()) {
      // In their order: setoption order can matter to an engine.
      out << "options = { ";
      for (std::size_t i = 0; i < e.options.size(); ++i)
        out << (i ? ", " : "") << quoted(e.options[i].first) << " = "
            << quoted(e.options[i].second);
      out << " }\n";
    }
  }
  return out.str();
}

std::string schema_markdown() {
  std::string out =
      "| option | TOML | value (default) | defines the match | Knightly | cutechess-cli | "
      "fastchess |\n|---|---|---|---|---|---|---|\n";
  auto anchor = [](const AnchorSpelling& a) -> std::string {
    switch (a.support) {
      case S_::Same:
        return a.note.empty() ? "same" : "same (" + std::string(a.note) + ")";
      case S_::Differs:
        return "differs: " + std::string(a.note);
      default:
        return a.note.empty() ? "—" : "— (" + std::string(a.note) + ")";
    }
  };
  for (const auto& k : kSchema) {
    std::string option;
    if (!k.flag.empty()) option = "`" + flag_usage(k) + "`";
    if (!k.knightly.empty()) {
      std::string which;
      if (k.commands == CommandSprt) which = " (sprt)";
      if (k.commands == CommandPlay) which = " (play)";
      option += (option.empty() ? "" : ", ") + ("`" + knightly_usage(k) + "`") + which;
    }
    const bool refused = !k.refused.empty() || !k.no_effect.empty();
    std::string value;
    if (!refused && k.type != T::Words && k.type != T::Flag && k.type != T::Text)
      value = expected_text(k);
    if (!refused && !k.fallback.empty())
      value += (value.empty() ? "default: " : "; default: ") + std::string(k.fallback);
    // "-bookmode: no effect; a Polyglot book ..." -> "a Polyglot book ...".
    auto reason = [](std::string_view note) {
      const auto at = note.find("no effect; ");
      return std::string(at == std::string_view::npos ? note : note.substr(at + 11));
    };
    std::string knightly(k.meaning);
    if (!k.refused.empty() && !k.no_effect.empty())
      knightly =
          "accepted, no effect: " + reason(k.no_effect) + "; refused: " + std::string(k.refused);
    else if (!k.refused.empty())
      knightly = "refused: " + std::string(k.refused);
    else if (!k.no_effect.empty())
      knightly = "accepted, no effect: " + reason(k.no_effect);
    out += "| " + markdown_cell(option) + " | " +
           markdown_cell(k.toml.empty() ? "—" : "`" + toml_text(k.toml) + "`") + " | " +
           markdown_cell(value) + " | " +
           (refused                 ? ""
            : k.role == Role::Match ? "yes"
            : k.role == Role::Name  ? "names it"
                                    : "") +
           " | " + markdown_cell(knightly) + " | " + markdown_cell(anchor(k.cutechess)) + " | " +
           markdown_cell(anchor(k.fastchess)) + " |\n";
  }
  return out;
}

std::string schema_help(Command command) {
  std::string out;
  auto line = [&](const std::string& usage, const MatchKey& k) {
    std::string meaning(k.meaning);
    if (meaning.empty()) return;
    if (const auto stop = meaning.find(". "); stop != std::string::npos)
      meaning = meaning.substr(0, stop + 1);
    std::string text = "  " + usage;
    if (text.size() < 30)
      text += std::string(30 - text.size(), ' ');
    else
      text += "  ";
    out += text + meaning;
    if (!k.fallback.empty() && k.type != T::Flag)
      out += " Default: " + std::string(k.fallback) + ".";
    out += "\n";
  };
  for (const auto& k : kSchema) {
    if (!k.knightly.empty() && (k.commands & command)) line(knightly_usage(k), k);
    if (command == CommandPlay && !k.flag.empty() && k.refused.empty() && k.no_effect.empty() &&
        k.word.empty())
      line(flag_usage(k), k);
    if (command == CommandPlay && !k.flag.empty() && !k.word.empty() && k.refused.empty() &&
        k.flag != "-engine")
      line(flag_usage(k), k);
  }
  if (command == CommandPlay)
    out +=
        "  Engine words (-engine, -each): cmd= name= dir= arg= args= option.NAME= env.NAME=\n"
        "    proto= tc= st= timemargin= depth= plies= nodes= restart= ponder builtin=\n"
        "    repo= ref= build= subdir= bench= (an engine built from its source)\n"
        "  Every option of cutechess-cli and fastchess, and what Knightly does with it: "
        "docs/cli.md.\n";
  return out;
}

}  // namespace knightly::runner

#include "runner/config/match_schema_rows.h"

namespace knightly::runner::schema_rows {

// An engine and its words, in TOML, both tools' -engine and `knightly sprt`; the keys of an
// engine built from its source.
std::span<const MatchKey> engine_rows() {
  // clang-format off
  static const MatchKey rows[] = {
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
  };
  // clang-format on
  return rows;
}

}  // namespace knightly::runner::schema_rows

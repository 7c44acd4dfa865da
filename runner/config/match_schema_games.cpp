#include "runner/config/match_schema_rows.h"

namespace knightly::runner::schema_rows {

// The games: the schedule, the openings and adjudication.
std::span<const MatchKey> game_rows() {
  // clang-format off
  static const MatchKey rows[] = {
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
     .fastchess = differs("checks the last scored info line of each move (fastchess: every "
                          "one), PV legality only under this flag (fastchess: always); no "
                          "bestmove-against-PV or mate-sign warning, no joined -testEnv line"),
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
  };
  // clang-format on
  return rows;
}

}  // namespace knightly::runner::schema_rows

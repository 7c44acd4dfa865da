// `knightly play` flags (cutechess-cli's and fastchess's) give the same Config as the TOML,
// with each tool's meaning, and every option Knightly does not support is an error naming it.
#include "runner/config/play_flags.h"

#include <catch2/catch.hpp>

#include "runner/config/config_toml.h"
#include "runner/config/match_schema.h"

using namespace knightly::runner;

namespace {

std::vector<std::string> split(const std::string& line) {
  auto words = split_words(line);
  REQUIRE(words.has_value());
  return *words;
}

PlayCommand play(const std::string& line) {
  auto result = parse_play_flags(split(line));
  INFO(line);
  INFO((result ? std::string() : result.error().to_string()));
  REQUIRE(result.has_value());
  return *result;
}

ConfigError flag_error(const std::string& line) {
  auto result = parse_play_flags(split(line));
  INFO(line);
  REQUIRE_FALSE(result.has_value());
  INFO(result.error().to_string());
  return result.error();
}

bool has_note(const PlayCommand& c, const std::string& part) {
  for (const auto& n : c.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

const std::string two = "-engine builtin=a -engine builtin=b ";

}  // namespace

TEST_CASE("play flags give the same Config as the equivalent TOML") {
  PlayCommand flags = play(
      "-engine cmd=/usr/games/stockfish name=sf arg=--x option.Hash=16 option.Threads=1 "
      "tc=40/60+0.5 dir=/tmp restart=on "
      "-engine builtin=ab option.Search=alphabeta option.Eval=material+pst depth=3 "
      "-each timemargin=50 nodes=100000 "
      "-games 2 -repeat -rounds 3 -concurrency 2 -srand 42 --tournament night -event Night "
      "-site lab -openings file=/data/book.epd format=epd order=sequential start=5 plies=6 "
      "-draw movenumber=30 movecount=8 score=10 -resign movecount=3 score=900 twosided=true "
      "-maxmoves 150 -pgnout out.pgn min -epdout end.epd -recover -noswap -wait 20 -db x.db "
      "-startup-ms 30000 -ucinewgame-ms 20000 -ping-ms 15000");
  const auto toml = parse_config_toml(R"(
[tournament]
name = "night"
games = 2
repeat = true
rounds = 3
concurrency = 2
seed = 42
maxmoves = 150
recover = true
noswap = true
wait_ms = 20
startup_ms = 30000
ucinewgame_ms = 20000
ping_ms = 15000

[adjudication]
draw = { movenumber = 30, movecount = 8, score = 10 }
resign = { movecount = 3, score = 900, twosided = true }

[openings]
file = "/data/book.epd"
format = "epd"
order = "sequential"
start = 5
plies = 6

[output]
database = "x.db"
pgn = "out.pgn"
pgn_min = true
epd = "end.epd"
event = "Night"
site = "lab"
format = "fastchess"
rating_interval = 10
score_interval = 1

[[engine]]
name = "sf"
command = "/usr/games/stockfish"
args = ["--x"]
workdir = "/tmp"
options = { Hash = 16, Threads = 1 }
tc = "40/60+0.5"
time_margin = 50
nodes = 100000
restart = true

[[engine]]
name = "ab"
builtin = true
options = { Search = "alphabeta", Eval = "material+pst" }
depth = 3
time_margin = 50
nodes = 100000
)");
  INFO((toml ? std::string() : toml.error().to_string()));
  REQUIRE(toml.has_value());
  Config a = flags.config;
  Config b = *toml;
  CHECK(flags.named);
  // -startup-ms is fastchess's alone (as its -ucinewgame-ms, -ping-ms): a fastchess line,
  // although cutechess's arg= and -pgnout FILE are there too, which a note says.
  CHECK(flags.dialect == Dialect::Fastchess);
  CHECK(has_note(flags, "read as a fastchess command line"));
  CHECK(a.source_text == match_identity(a));
  a.source_text = b.source_text = "";
  CHECK(a.tournament == b.tournament);
  CHECK(a.engines == b.engines);
  CHECK(a.openings == b.openings);
  CHECK(a.output == b.output);
  CHECK(a.sprt == b.sprt);
  CHECK(a == b);
}

TEST_CASE("play defaults: one game, one round, sequential openings, cutechess output") {
  auto c = play(two);
  CHECK_FALSE(c.named);
  CHECK(c.dialect == Dialect::Cutechess);
  CHECK(c.config.tournament.name.rfind("play-", 0) == 0);
  CHECK(c.config.tournament.games_per_encounter == 1);
  CHECK(c.config.tournament.rounds == 1);
  CHECK_FALSE(c.config.tournament.repeat);
  CHECK_FALSE(c.config.tournament.recover);
  CHECK_FALSE(c.config.tournament.seed.has_value());
  CHECK(c.config.output.database == "knightly.db");
  CHECK(c.config.output.format == OutputStyle::Cutechess);
  CHECK(c.config.output.score_interval == 1);
  CHECK(c.config.output.rating_interval == 0);
  CHECK(c.config.output.event == "?");  // cutechess's empty event name
  // Nothing says whose line it is, and fastchess would play 2 rounds of 2 games: one note.
  REQUIRE(c.notes.size() == 1);
  CHECK(has_note(c, "read as a cutechess-cli command line"));
  CHECK(has_note(c, "fastchess would play 4 games per encounter in pairs"));
  // A fastchess line has fastchess's defaults, its Event and output.
  auto f = play(two + "-output format=fastchess");
  CHECK(f.dialect == Dialect::Fastchess);
  CHECK(f.config.tournament.rounds == 2);
  CHECK(f.config.tournament.games_per_encounter == 2);
  CHECK(f.config.tournament.repeat);
  CHECK(f.config.output.event == "Fastchess Tournament");
  CHECK(f.config.output.rating_interval == 10);
  CHECK(f.config.output.report_penta);
  CHECK(f.notes.empty());
}

TEST_CASE("play names the match after what defines its games, never the worker's options") {
  auto a = play(two + "-rounds 2");
  auto again = play(two + "-rounds 2 -concurrency 4 -pgnout games.pgn -db other.db");
  auto spelled = play(two + "-rounds 2 --concurrency 3 --pgn x.pgn --db ./y.db -wait 10");
  auto other = play(two + "-rounds 3");
  CHECK(a.config.tournament.name == again.config.tournament.name);
  CHECK(a.config.tournament.name == spelled.config.tournament.name);
  CHECK(a.config.source_text == again.config.source_text);
  CHECK(a.config.tournament.name != other.config.tournament.name);
  CHECK(a.config.tournament.name == play_tournament_name(a.config.source_text));
  CHECK(a.config.tournament.name.size() == std::string("play-").size() + 12);
  CHECK(again.config.tournament.concurrency == 4);
  CHECK(spelled.config.tournament.concurrency == 3);
  CHECK(spelled.config.output.pgn == "x.pgn");
  CHECK(spelled.config.output.database == "./y.db");
  // A database URL with a password is neither in the name nor in the match's text.
  auto pg1 = play(two + "-rounds 2 --db postgresql://knightly:s3cret@db.lab:5432/k");
  auto pg2 = play(two + "-rounds 2 -db postgresql://knightly:0ther@db.lab:5432/k");
  CHECK(pg1.config.tournament.name == a.config.tournament.name);
  CHECK(pg2.config.tournament.name == a.config.tournament.name);
  CHECK(pg1.config.source_text.find("s3cret") == std::string::npos);
  CHECK(pg1.config.source_text.find("postgresql") == std::string::npos);
  // What defines the games does change it: the seed, the engines, the book.
  CHECK(play(two + "-rounds 2 -srand 0").config.tournament.name != a.config.tournament.name);
  CHECK(play(two + "-rounds 2 -each depth=3").config.tournament.name != a.config.tournament.name);
  // --tournament NAME names it; -tournament is the tournament's format and nothing else.
  auto named = play(two + "--tournament gauntlet");
  CHECK(named.named);
  CHECK(named.config.tournament.name == "gauntlet");
  CHECK(choice_name(named.config.tournament.format) == "round-robin");
  // -event only sets the PGN's Event tag: one word in a cutechess-cli line, joined in a
  // fastchess line (fastchess concatenates them).
  auto event = play(two + "-event \"Batch 7: New vs Base\"");
  CHECK_FALSE(event.named);
  CHECK(event.config.output.event == "Batch 7: New vs Base");
  CHECK(flag_error(two + "-event Batch 7").key == "-event");
  CHECK(play(two + "-testEnv -event Batch 7").config.output.event == "Batch7");
}

TEST_CASE(
    "play: -tournament swiss, or any unknown word, is refused naming the key and the choices") {
  auto swiss = flag_error(two + "-tournament swiss");
  CHECK(swiss.key == "-tournament");
  CHECK(swiss.message.find("'swiss' is not round-robin or gauntlet") != std::string::npos);
  CHECK(flag_error(two + "-tournament nightly").key == "-tournament");
  // Every other choice of the schema, the same way.
  CHECK(flag_error(two + "-variant atomic").message.find("standard or fischerandom") !=
        std::string::npos);
  CHECK(flag_error(two + "-openings file=a.epd order=shuffled")
            .message.find("random or "
                          "sequential") != std::string::npos);
  CHECK(flag_error(two + "-sprt model=elo")
            .message.find("normalized, logistic, bayesian or cutechess") != std::string::npos);
  CHECK(flag_error(two + "-output format=json").message.find("knightly, cutechess or fastchess") !=
        std::string::npos);
  CHECK(flag_error(two + "-tb /s -tbadjudicate WINS").message.find("WIN_LOSS, DRAW or BOTH") !=
        std::string::npos);
  CHECK(flag_error(two + "--sync fast").message.find("full or normal") != std::string::npos);
}

TEST_CASE("play: -srand is a fixed seed, 0 too, over the whole 64-bit range fishtest uses") {
  CHECK(play(two + "-srand 0").config.tournament.seed == std::optional<std::uint64_t>(0));
  CHECK(play(two + "-srand 18446744073709551615").config.tournament.seed ==
        std::optional<std::uint64_t>(18446744073709551615ull));
  CHECK(flag_error(two + "-srand -1").key == "-srand");
  CHECK(flag_error(two + "-srand 18446744073709551616").key == "-srand");
}

TEST_CASE("play flags: -games, -rounds and -repeat as each tool plays them") {
  auto games = [](const PlayCommand& c) {
    const auto& t = c.config.tournament;
    return std::to_string(t.rounds) + "x" + std::to_string(t.games_per_encounter) +
           (t.repeat ? " pairs" : "");
  };
  const std::string fast = two + "-output format=fastchess ";  // an option only fastchess has
  const std::string cute = two + "-pgnout g.pgn ";             // a form only cutechess-cli has

  // fastchess: -games 2 -rounds N is N pairs, each from one opening, with or without -repeat
  // (OpenBench's line), and the report is of pairs.
  auto ob = play(fast + "-games 2 -rounds 5");
  CHECK(games(ob) == "5x2 pairs");
  CHECK(ob.config.output.report_penta);
  CHECK(games(play(fast + "-rounds 30 -repeat")) == "30x2 pairs");
  CHECK(games(play(fast + "-rounds 7")) == "7x2 pairs");  // -games 2 is its default
  CHECK(games(play(fast + "-games 1 -rounds 7")) == "7x1");
  // A -games above 2 is swapped with -rounds, as fastchess's fixConfig does.
  CHECK(games(play(fast + "-games 10")) == "10x2 pairs");
  CHECK(flag_error(fast + "-games 10 -rounds 3").message.find("at most 2 games per round") !=
        std::string::npos);

  // cutechess-cli: -games per encounter, each its own opening unless -repeat, which plays
  // each opening twice in a row; single games for its SPRT and report.
  auto cg = play(cute + "-games 2 -rounds 5");
  CHECK(games(cg) == "5x2");
  CHECK_FALSE(cg.config.output.report_penta);
  CHECK(games(play(cute + "-games 10 -repeat")) == "1x10 pairs");
  CHECK(games(play(cute + "-rounds 30 -repeat")) == "15x2 pairs");
  CHECK(games(play(cute + "-rounds 30")) == "30x1");
  auto five = play(cute + "-rounds 5 -repeat");  // two pairs and a last game alone
  CHECK(games(five) == "1x5 pairs");
  CHECK(has_note(five, "no partner"));
  auto odd = play(cute + "-games 3 -repeat");
  CHECK(games(odd) == "1x3 pairs");
  CHECK(has_note(odd, "no partner"));

  // fishtest's -repeat -games 2 -rounds N means the same to both: no note.
  auto fishtest = play(two + "-repeat -games 2 -rounds 8");
  CHECK(games(fishtest) == "8x2 pairs");
  CHECK(fishtest.notes.empty());
  // A line that says neither, where they differ: cutechess-cli's, and one note saying so.
  auto ambiguous = play(two + "-games 2 -rounds 5");
  CHECK(games(ambiguous) == "5x2");
  REQUIRE(ambiguous.notes.size() == 1);
  CHECK(has_note(ambiguous, "read as a cutechess-cli command line"));
  CHECK(has_note(ambiguous, "fastchess would play 10 games per encounter in pairs"));

  CHECK(flag_error(two + "-repeat 4").key == "-repeat");
  CHECK(flag_error(two + "-repeat two").message.find("not an integer") != std::string::npos);
  CHECK(flag_error(two + "-games 0").key == "-games");
}

TEST_CASE(
    "play: -sprt is cutechess-cli's test on a cutechess-cli line, fastchess's on a fastchess "
    "line") {
  auto cute = play(two + "-repeat -games 2 -rounds 100 -sprt elo0=0 elo1=5 -pgnout g.pgn");
  CHECK(cute.config.sprt.enabled);
  CHECK(cute.config.sprt.model == knightly::runner::stats::EloModel::Cutechess);
  CHECK_FALSE(cute.config.output.report_penta);  // cutechess counts games
  auto fast = play(two + "-repeat -games 2 -rounds 100 -sprt elo0=0 elo1=5 -report penta=true");
  CHECK(fast.config.sprt.model == knightly::runner::stats::EloModel::Normalized);
  CHECK(fast.config.output.report_penta);
  auto logistic = play(two + "-rounds 100 -sprt elo0=0 elo1=5 model=logistic");
  CHECK(logistic.dialect == Dialect::Fastchess);  // model= is fastchess's
  CHECK(logistic.config.sprt.model == knightly::runner::stats::EloModel::Logistic);
  // fastchess's bayesian model is defined on games: the report is of games, with a note.
  auto bayes = play(two + "-rounds 100 -sprt elo0=0 elo1=5 model=bayesian");
  CHECK(bayes.config.sprt.model == knightly::runner::stats::EloModel::Bayesian);
  CHECK_FALSE(bayes.config.output.report_penta);
  CHECK(has_note(bayes, "single games"));
  // A line that does not say whose it is: cutechess-cli's, and the note says what fastchess
  // would run.
  auto ambiguous = play(two + "-repeat -games 2 -rounds 100 -sprt elo0=0 elo1=5");
  CHECK(ambiguous.config.sprt.model == knightly::runner::stats::EloModel::Cutechess);
  CHECK(has_note(ambiguous, "normalized SPRT on pairs"));
}

TEST_CASE("play flags: -each applies after the engines' own words, as in both tools") {
  auto c = play(
      "-engine builtin=a depth=2 option.Hash=32 -engine builtin=b -each depth=4 option.Hash=8");
  CHECK(c.config.engines[0].limits.depth == 4);
  CHECK(c.config.engines[1].limits.depth == 4);
  using Options = std::vector<std::pair<std::string, std::string>>;
  CHECK(c.config.engines[0].options == Options{{"Hash", "8"}});
  CHECK(c.config.engines[1].options == Options{{"Hash", "8"}});
}

TEST_CASE("engine words of both tools") {
  auto c = play(
      "-engine cmd=/opt/e/engine-x.exe st=0.1 tc=inf -engine cmd=/opt/e/engine-y tc=inf plies=7 "
      "args=\"--threads 2 --net 'my net.bin'\" restart=off proto=uci");
  const auto& x = c.config.engines[0];
  const auto& y = c.config.engines[1];
  CHECK(x.name == "engine-x");  // a fastchess line: the program's name without its extension
  REQUIRE(x.limits.tc.has_value());
  CHECK(x.limits.tc->movetime_ms == 100);  // tc=inf with st: the time per move stays
  CHECK(y.limits.tc->infinite);
  CHECK(y.limits.depth == 7);
  CHECK(y.args == std::vector<std::string>{"--threads", "2", "--net", "my net.bin"});
  CHECK_FALSE(y.restart);
  CHECK(c.dialect == Dialect::Fastchess);  // plies= and args= are fastchess's
  CHECK(c.config.output.format == OutputStyle::Fastchess);
  // cutechess-cli's line keeps the file name (cutechess asks the engine for its name).
  CHECK(play("-engine cmd=/opt/e/a.exe depth=1 arg=x -engine builtin=b").config.engines[0].name ==
        "a.exe");
  // cutechess's ponder: the engine thinks on its opponent's time.
  auto ponder = play("-engine cmd=/bin/sf tc=1+0.1 ponder -engine builtin=b");
  CHECK(ponder.config.engines[0].ponder);
  CHECK_FALSE(ponder.config.engines[1].ponder);
  CHECK(ponder.dialect == Dialect::Cutechess);

  // An option name with a space, whether the shell kept it in one word or split it.
  auto spaced = parse_play_flags({"-engine", "cmd=/bin/sf", "option.Skill", "Level=3",
                                  "option.Move Overhead=100", "tc=1+0.01", "-engine", "builtin=b"});
  REQUIRE(spaced.has_value());
  using Options = std::vector<std::pair<std::string, std::string>>;
  CHECK(spaced->config.engines[0].options ==
        Options{{"Skill Level", "3"}, {"Move Overhead", "100"}});

  CHECK(
      flag_error("-engine cmd=/bin/sf tc=10+0.1 st=1 -engine builtin=b").message.find("together") !=
      std::string::npos);
  auto xboard =
      parse_play_flags({"-engine", "cmd=/bin/x", "proto=xboard", "tc=1", "-engine", "builtin=b"});
  REQUIRE(xboard.has_value());
  CHECK(choice_name(xboard->config.engines[0].protocol) == "xboard");
  auto proto = flag_error("-engine cmd=/bin/x proto=winboard tc=1 -engine builtin=b");
  CHECK(proto.key == "-engine #1");
  CHECK(proto.message.find("proto=xboard") != std::string::npos);
  CHECK(flag_error("-engine cmd=/bin/x proto=xboard st=0.1 -engine builtin=b")
            .message.find("whole seconds") != std::string::npos);
  for (const std::string word : {"conf=sf", "initstr=x", "tscale=2", "book=b.bin", "bookdepth=4",
                                 "whitepov", "trust", "stderr=e.log"}) {
    auto e = flag_error("-engine cmd=/bin/x tc=1 " + word + " -engine builtin=b");
    CHECK(e.key == "-engine #1");
    CHECK(e.message.find(word.substr(0, word.find('='))) != std::string::npos);
  }
}

TEST_CASE("play flags: -pgnout in both forms, -epdout, -log, -output, -report") {
  auto fast = play(two +
                   "-pgnout file=games.pgn notation=lan nodes=true seldepth=true nps=true "
                   "hashfull=true tbhits=true timeleft=true latency=true min=false append=false");
  const auto& o = fast.config.output;
  CHECK(o.pgn == "games.pgn");
  CHECK(o.pgn_options.notation == PgnNotation::Lan);
  CHECK(o.pgn_options.nodes);
  CHECK(o.pgn_options.seldepth);
  CHECK(o.pgn_options.nps);
  CHECK(o.pgn_options.hashfull);
  CHECK(o.pgn_options.tbhits);
  CHECK(o.pgn_options.timeleft);
  CHECK(o.pgn_options.latency);
  CHECK_FALSE(o.pgn_options.min);
  CHECK_FALSE(o.pgn_append);
  CHECK(o.format == OutputStyle::Fastchess);
  CHECK(o.rating_interval == 10);
  CHECK(fast.dialect == Dialect::Fastchess);
  CHECK_FALSE(fast.pgn_default_name);

  auto cute = play(two + "-pgnout games.pgn min fi");
  CHECK(cute.config.output.pgn == "games.pgn");
  CHECK(cute.config.output.pgn_options.min);
  CHECK(cute.config.output.format == OutputStyle::Cutechess);
  CHECK(play(two + "-pgnout file=g.pgn notation=uci").config.output.pgn_options.notation ==
        PgnNotation::Uci);

  CHECK(play(two + "-epdout end.epd").config.output.epd == "end.epd");
  CHECK(play(two + "-epdout file=end.epd").config.output.epd == "end.epd");
  auto epd = play(two + "-epdout file=end.epd append=false");
  CHECK_FALSE(epd.config.output.epd_append);
  CHECK(epd.dialect == Dialect::Fastchess);

  // OpenBench's match_line= and fastchess's pv=: engine lines and the PV into the PGN.
  auto ob = play(two +
                 "-pgnout file=g.pgn seldepth=true nodes=true pv=true "
                 "match_line='^info string pgncomment .*'");
  CHECK(ob.config.output.pgn_options.match_line == "^info string pgncomment .*");
  CHECK(ob.config.output.pgn_options.pv);
  auto regex = flag_error(two + "-pgnout file=g.pgn match_line=(");
  CHECK(regex.key == "-pgnout");
  CHECK(regex.message.find("regular expression") != std::string::npos);
  // Without a file fastchess names it after the time: the caller writes the name.
  auto unnamed = play(two + "-pgnout");
  CHECK(unnamed.pgn_default_name);
  CHECK(unnamed.dialect == Dialect::Fastchess);
  CHECK(play(two + "-pgnout nodes=true").pgn_default_name);
  CHECK(play(two + "-epdout").epd_default_name);

  auto log = play(two + "-log file=run.log level=info engine=true append=false realtime=false");
  CHECK(log.config.output.log_file == "run.log");
  CHECK(log.config.output.log_engine);
  CHECK_FALSE(log.config.output.log_append);

  auto out = play(two +
                  "-output format=fastchess -report penta=false -ratinginterval 5 "
                  "-scoreinterval 3");
  CHECK(out.config.output.format == OutputStyle::Fastchess);
  CHECK_FALSE(out.config.output.report_penta);
  CHECK(out.config.output.rating_interval == 5);
  CHECK(out.config.output.score_interval == 3);
  CHECK(play(two + "-output format=cutechess -report penta=true").config.output.format ==
        OutputStyle::Cutechess);

  CHECK(flag_error(two + "-pgnout file=g.pgn notation=fan").message.find("san, lan or uci") !=
        std::string::npos);
  CHECK(flag_error(two + "-pgnout g.pgn max").key == "-pgnout");
  CHECK(flag_error(two + "-log level=info").message.find("file=F") != std::string::npos);
  CHECK(flag_error(two + "-log file=x compress=true").message.find("compress") !=
        std::string::npos);
  CHECK(flag_error(two + "-output format=json").key == "-output");
}

TEST_CASE("tournament type, variant, affinity, intervals and fastchess's extras") {
  CHECK(
      choice_name(play("-engine builtin=a -engine builtin=b -engine builtin=c -tournament gauntlet")
                      .config.tournament.format) == "gauntlet");
  CHECK(choice_name(play(two + "-tournament roundrobin").config.tournament.format) ==
        "round-robin");
  CHECK(choice_name(play(two + "-tournament round-robin").config.tournament.format) ==
        "round-robin");
  CHECK(flag_error(two + "-tournament knockout").message.find("not supported") !=
        std::string::npos);
  CHECK(play(two + "-tournament roundrobin").dialect == Dialect::Fastchess);
  CHECK(play(two + "-tournament round-robin").dialect == Dialect::Cutechess);
  CHECK(flag_error(two + "-tournament gauntlett").message.find("did you mean 'gauntlet'") !=
        std::string::npos);

  CHECK(choice_name(play(two + "-variant standard").config.tournament.variant) == "standard");
  CHECK(flag_error(two + "-variant atomic").key == "-variant");
  CHECK(flag_error(two + "-variant fischerandomm").message.find("did you mean 'fischerandom'") !=
        std::string::npos);
}

TEST_CASE("variant fischerandom tells every UCI engine UCI_Chess960, dfrc needs it") {
  const std::string uci =
      "-engine cmd=/bin/true name=a depth=1 -engine cmd=/bin/true name=b "
      "depth=1 option.uci_chess960=false ";
  auto frc = play(uci + "-variant fischerandom");
  CHECK(choice_name(frc.config.tournament.variant) == "fischerandom");
  using Options = std::vector<std::pair<std::string, std::string>>;
  CHECK(frc.config.engines[0].options == Options{{"UCI_Chess960", "true"}});
  // A value the user gave (in any case) is kept and not doubled.
  CHECK(frc.config.engines[1].options == Options{{"uci_chess960", "false"}});
  CHECK(play(uci).config.engines[0].options.empty());
  // Builtin players search the position as it is: no option.
  CHECK(play(two + "-variant fischerandom").config.engines[0].options.empty());
  CHECK_FALSE(frc.config.openings.dfrc);
  CHECK(play(two + "-variant fischerandom -dfrc").config.openings.dfrc);
  auto lone = flag_error(two + "-dfrc");
  CHECK(lone.key == "-dfrc");
  CHECK(lone.message.find("fischerandom") != std::string::npos);
  auto with_file = flag_error(two + "-variant fischerandom -dfrc -openings file=b.epd");
  CHECK(with_file.key == "-dfrc");
  CHECK(with_file.message.find("b.epd") != std::string::npos);

  auto aff = play(two + "-use-affinity 3,5,7-9");
  CHECK(aff.config.tournament.affinity);
  CHECK(aff.config.tournament.affinity_cpus == std::vector<int>{3, 5, 7, 8, 9});
  auto all = play(two + "-use-affinity -concurrency 2");
  CHECK(all.config.tournament.affinity);
  CHECK(all.config.tournament.affinity_cpus.empty());
  CHECK(flag_error(two + "-use-affinity 9-3").key == "-use-affinity");

  auto extras = play(two +
                     "-testEnv -autosaveinterval 0 -force-concurrency -crc32 pgn=true "
                     "-config outname=x.json -reverse");
  CHECK(extras.config.output.crc32);
  CHECK(extras.config.tournament.reverse_sides);
  CHECK(has_note(extras, "-autosaveinterval"));
  CHECK(has_note(extras, "-config"));
  CHECK(flag_error(two + "-config file=x.json").key == "-config");

  auto quick = play("-quick cmd=/bin/sf cmd=/bin/sf book=b.epd");
  CHECK(quick.config.engines.size() == 2);
  CHECK(quick.config.engines[0].name == "/bin/sf1");
  CHECK(quick.config.engines[1].name == "/bin/sf2");
  CHECK(quick.config.tournament.rounds == 25000);
  CHECK(quick.config.tournament.games_per_encounter == 2);
  CHECK(quick.config.tournament.recover);
  CHECK(choice_name(quick.config.openings.order) == "random");
  CHECK(quick.config.output.format == OutputStyle::Cutechess);
}

TEST_CASE("options Knightly does not support are errors that name them") {
  for (const std::string flag :
       {"-debug", "-bookmode tape", "-outcomeinterval 10", "-resultformat wide", "-show-latency",
        "-version", "-help", "-engines", "-strict", "-tournament swiss", "-tournament knockout"}) {
    auto e = flag_error(two + flag);
    CHECK(e.key == flag.substr(0, flag.find(' ')));
    CHECK_FALSE(e.message.empty());
  }
  CHECK(flag_error(two + "-openings file=a.epd policy=encounter").key == "-openings");
  CHECK(flag_error("-engine builtin=a -engine builtin=b -engine builtin=c -games 2 -openings "
                   "file=a.epd policy=round")
            .message.find("policy=round") != std::string::npos);
  CHECK(flag_error(two + "-openings file=book.txt").message.find("format=") != std::string::npos);
}

TEST_CASE("openings format=bin: Polyglot books, by extension or by name") {
  auto bin = play(two + "-openings file=/b/performance.bin plies=12 order=random");
  CHECK(choice_name(bin.config.openings.format) == "bin");
  CHECK(bin.config.openings.plies == 12);
  CHECK(choice_name(bin.config.openings.order) == "random");
  CHECK(choice_name(play(two + "-openings file=/b/book format=bin").config.openings.format) ==
        "bin");
  CHECK(choice_name(play(two + "-openings file=/b/book.bin").config.openings.order) ==
        "sequential");
  CHECK(flag_error(two + "-openings file=b.bin format=abk").message.find("bin") !=
        std::string::npos);
  auto mode = play(two + "-bookmode ram -openings file=b.bin");
  bool noted = false;
  for (const auto& n : mode.notes) noted = noted || n.find("-bookmode") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("play flag errors name the flag") {
  auto bad_int = flag_error(two + "-games two");
  CHECK(bad_int.key == "-games");
  CHECK(bad_int.message.find("'two' is not an integer") != std::string::npos);

  auto unknown = flag_error(two + "-concurency 2");
  CHECK(unknown.key == "-concurency");
  CHECK(unknown.message.find("did you mean '-concurrency'?") != std::string::npos);

  auto key = flag_error("-engine cmd=x nme=y depth=1 -engine builtin=b");
  CHECK(key.key == "-engine #1");
  CHECK(key.message.find("did you mean 'name'?") != std::string::npos);

  auto one = flag_error("-engine builtin=a");
  CHECK(one.key == "-engine");
  CHECK(one.message.find("at least 2 engines") != std::string::npos);

  auto dup = flag_error("-engine builtin=a -engine builtin=a");
  CHECK(dup.key == "-engine #2");
  CHECK(dup.message.find("duplicate engine name") != std::string::npos);

  auto tc = flag_error("-engine builtin=a tc=1/2/3 -engine builtin=b");
  CHECK(tc.key == "-engine #1");
  CHECK(tc.message.find("tc:") != std::string::npos);

  auto missing = flag_error(two + "-rounds");
  CHECK(missing.key == "-rounds");
  CHECK(missing.message == "needs a value");

  CHECK(flag_error(two + "-draw movenumber=3").key == "-draw");
  CHECK(flag_error(two + "-resign movecount=3").key == "-resign");
  CHECK(flag_error(two + "-recover yes").message.find("takes no value") != std::string::npos);

  auto openings = flag_error(two + "-openings file=a.epd order=sequencial");
  CHECK(openings.key == "-openings");
  CHECK(openings.message.find("did you mean") != std::string::npos);

  auto sprt = flag_error(two + "-engine builtin=c -sprt elo0=0 elo1=5");
  CHECK(sprt.key == "-sprt");

  auto option = flag_error("-engine builtin=a option.Search=minimx -engine builtin=b");
  CHECK(option.key == "-engine #1");
  CHECK(option.message.find("did you mean 'minimax'?") != std::string::npos);

  auto stray = flag_error("extra " + two);
  CHECK(stray.message.find("expected an option") != std::string::npos);
}

TEST_CASE("play flags: -draw and -resign take fastchess's defaults for keys cutechess requires") {
  auto c = play(two + "-draw score=8 -resign score=600");
  const auto& a = c.config.tournament.adjudication;
  CHECK(a.draw.enabled);
  CHECK(a.draw.move_number == 0);
  CHECK(a.draw.move_count == 1);
  CHECK(a.draw.score_cp == 8);
  CHECK(a.resign.move_count == 1);
  CHECK(a.resign.score_cp == 600);
}

TEST_CASE("a newline in an engine name given as a flag is refused") {
  auto result = parse_play_flags({"-engine", "builtin=a", "name=x\ny", "-engine", "builtin=b"});
  REQUIRE_FALSE(result);
  CHECK(result.error().key == "-engine #1");
  CHECK(result.error().message.find("engine name \"x\\x0ay\" holds a control character") !=
        std::string::npos);
}

TEST_CASE("a word that is not a flag is named by its place, an empty one too") {
  // Found by fuzz_play_flags: an empty argument gave an error whose key was empty.
  auto empty =
      parse_play_flags({"-games", "2", "", "-engine", "builtin=a", "-engine", "builtin=b"});
  REQUIRE_FALSE(empty);
  CHECK(empty.error().key == "argument 3");
  CHECK(empty.error().to_string() == "argument 3: expected an option such as -engine, got ''");
  auto word = flag_error("-rounds 2 games -engine builtin=a -engine builtin=b");
  CHECK(word.key == "argument 3");
  CHECK(word.message == "expected an option such as -engine, got 'games'");
}

TEST_CASE("tb, tbpieces, tbignore50, tbadjudicate: fastchess's tablebase adjudication") {
  auto tb = play(two + "-tb /syzygy:/more -tbpieces 5 -tbignore50 -tbadjudicate WIN_LOSS");
  const auto& t = tb.config.tournament.adjudication.tablebase;
  CHECK(t.enabled);
  CHECK(t.path == "/syzygy:/more");
  CHECK(t.max_pieces == 5);
  CHECK(t.ignore_50);
  CHECK(t.win_loss);
  CHECK_FALSE(t.draw);
  auto draws =
      play(two + "-tb /syzygy -tbadjudicate DRAW").config.tournament.adjudication.tablebase;
  CHECK_FALSE(draws.win_loss);
  CHECK(draws.draw);
  auto both = play(two + "-tb /syzygy").config.tournament.adjudication.tablebase;
  CHECK((both.win_loss && both.draw && both.max_pieces == 0 && !both.ignore_50));
  CHECK_FALSE(play(two).config.tournament.adjudication.tablebase.enabled);
  CHECK(flag_error(two + "-tbpieces 5").key == "-tbpieces");
  CHECK(flag_error(two + "-tbpieces 5").message.find("-tb PATH") != std::string::npos);
  CHECK(flag_error(two + "-tb /s -tbadjudicate WIN").message.find("WIN_LOSS") != std::string::npos);
  CHECK(flag_error(two + "-tb /s -tbpieces 33").key == "-tbpieces");
}

// One reader of integers in a range (engine/base/int_text.h): every front end of a match
// names its flag or key, the text and the range the same way.
TEST_CASE("integers in a range: every front end says the key, the text and the range in one form") {
  auto flag = flag_error(two + "-concurrency 0");
  CHECK(flag.key == "-concurrency");
  CHECK(flag.message == "'0' is not an integer in [1, 1024]");
  CHECK(flag_error(two + "-concurrency many").message == "'many' is not an integer in [1, 1024]");
  auto cpu = flag_error(two + "-use-affinity 0-5000");
  CHECK(cpu.key == "-use-affinity");
  CHECK(cpu.message == "CPUS: '5000' is not an integer in [0, 4095]");
  auto depth = flag_error("-engine builtin=a depth=0 -engine builtin=b");
  CHECK(depth.message == "depth: '0' is not an integer in [1, 1000]");
  auto margin = flag_error("-engine builtin=a timemargin=lots -engine builtin=b");
  CHECK(margin.message == "timemargin: 'lots' is not an integer in [0, 3600000]");
  auto nodes = flag_error("-engine builtin=a nodes=0 -engine builtin=b");
  CHECK(nodes.message == "nodes: '0' is not an integer >= 1");
  auto bench = flag_error("-engine repo=/r ref=main bench=0 -engine builtin=b");
  CHECK(bench.message == "bench: '0' is not an integer >= 1 (a node count)");
}

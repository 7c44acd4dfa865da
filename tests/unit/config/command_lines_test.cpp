// Real command lines, as fishtest, OpenBench, both tools' manuals and engine authors run them,
// each parsed by `knightly play` into the Config its TOML equivalent gives - or into an error
// naming the option Knightly does not support. The text after `fastchess` / `cutechess-cli`
// is the row's `line`, split as a shell splits it.
#include <catch2/catch.hpp>

#include "runner/config/config_toml.h"
#include "runner/config/match_schema.h"
#include "runner/config/play_flags.h"

using namespace knightly::runner;

namespace {

struct Row {
  const char* source;  // where the command line comes from
  const char* line;
  const char* toml;                // the expected Config as TOML (name and source text aside)
  const char* error_key;           // or the flag an error must name
  const char* error_text;          // and a part of its message
  std::vector<const char*> notes;  // parts of the notes the command must print
};

const Row rows[] = {
    {"fishtest worker/games.py (fastchess, SPRT task of 8 games)",
     R"(-testEnv -recover -repeat -games 2 -rounds 4 -ratinginterval 1 -scoreinterval 1
        -autosaveinterval 0 -report penta=true -pgnout file=results-65f1c8-7.pgn
        -crc32 pgn=true -site https://tests.stockfishchess.org/tests/view/65f1c8
        -event "Batch 7: New-e443b2459e vs Base-e443b2459e" -srand 4240390157011111
        -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20
        -variant standard -concurrency 2
        -openings file=UHO_Lichess_4852_v1.epd format=epd order=random plies=16 start=57
        -engine name=New-e443b2459e tc=10.0+0.10 cmd=/w/testing/stockfish_e443b2459e dir=.
          option.Hash=16 option.EvalFile=nn-1c0000000000.nnue
        -engine name=Base-e443b2459e tc=10.0+0.10 cmd=/w/testing/stockfish_e443b2459e dir=.
          option.Hash=16 option.EvalFile=nn-1c0000000000.nnue
        -each proto=uci option.Threads=1)",
     R"([tournament]
rounds = 4
games = 2
repeat = true
concurrency = 2
seed = 4240390157011111
recover = true
[adjudication]
draw = { movenumber = 34, movecount = 8, score = 20 }
resign = { movecount = 3, score = 600 }
[openings]
file = "UHO_Lichess_4852_v1.epd"
format = "epd"
order = "random"
plies = 16
start = 57
[output]
pgn = "results-65f1c8-7.pgn"
site = "https://tests.stockfishchess.org/tests/view/65f1c8"
event = "Batch 7: New-e443b2459e vs Base-e443b2459e"
format = "fastchess"
rating_interval = 1
score_interval = 1
crc32 = true
[[engine]]
name = "New-e443b2459e"
command = "/w/testing/stockfish_e443b2459e"
workdir = "."
tc = "10.0+0.10"
options = { Hash = 16, EvalFile = "nn-1c0000000000.nnue", Threads = 1 }
[[engine]]
name = "Base-e443b2459e"
command = "/w/testing/stockfish_e443b2459e"
workdir = "."
tc = "10.0+0.10"
options = { Hash = 16, EvalFile = "nn-1c0000000000.nnue", Threads = 1 }
)",
     nullptr,
     nullptr,
     {"-autosaveinterval"}},

    {"OpenBench Client/worker.py (fastchess-ob): -rounds R -games 2, match_line=",
     R"(-recover -variant standard -testEnv -concurrency 8 -rounds 16 -games 2
        -resign movecount=3 score=400 -draw movenumber=40 movecount=8 score=10
        -engine dir=Engines/ cmd=./Ethereal-6f5e1a proto=uci tc=8.00+0.08 option.Threads=1
          option.Hash=16 name=Ethereal-dev
        -engine dir=Engines/ cmd=./Ethereal-0a9c2d proto=uci tc=8.00+0.08 option.Threads=1
          option.Hash=16 name=Ethereal-base
        -openings file=Books/UHO_Lichess_4852_v1.epd format=epd order=random start=1025
        -srand 2718281828
        -pgnout file=PGNs/4021.77310.1700000000.0.pgn seldepth=true nodes=true
          match_line='^info string pgncomment .*')",
     R"([tournament]
rounds = 16
games = 2
repeat = true
concurrency = 8
seed = 2718281828
recover = true
[adjudication]
draw = { movenumber = 40, movecount = 8, score = 10 }
resign = { movecount = 3, score = 400 }
[openings]
file = "Books/UHO_Lichess_4852_v1.epd"
format = "epd"
order = "random"
start = 1025
[output]
pgn = "PGNs/4021.77310.1700000000.0.pgn"
pgn_fields = ["seldepth", "nodes"]
pgn_match_line = "^info string pgncomment .*"
event = "Fastchess Tournament"
format = "fastchess"
rating_interval = 10
score_interval = 1
[[engine]]
name = "Ethereal-dev"
workdir = "Engines/"
command = "./Ethereal-6f5e1a"
tc = "8.00+0.08"
options = { Threads = 1, Hash = 16 }
[[engine]]
name = "Ethereal-base"
workdir = "Engines/"
command = "./Ethereal-0a9c2d"
tc = "8.00+0.08"
options = { Threads = 1, Hash = 16 }
)",
     nullptr,
     nullptr,
     {}},

    {"OpenBench Client/worker.py (fastchess-ob)",
     R"(-repeat -recover -variant standard -testEnv -concurrency 8 -games 32
        -resign movecount=3 score=400 -draw movenumber=40 movecount=8 score=10
        -openings file=Books/UHO_Lichess_4852_v1.epd format=epd order=random start=1025
        -srand 2718281828
        -engine dir=Engines/ cmd=./Ethereal-6f5e1a proto=uci tc=8.00+0.08 timemargin=250
          option.Threads=1 option.Hash=16 name=Ethereal-dev
        -engine dir=Engines/ cmd=./Ethereal-0a9c2d proto=uci tc=8.00+0.08 timemargin=250
          option.Threads=1 option.Hash=16 name=Ethereal-base
        -pgnout file=PGNs/4021.77310.1700000000.0.pgn seldepth=true nodes=true)",
     R"([tournament]
rounds = 32
games = 2
repeat = true
concurrency = 8
seed = 2718281828
recover = true
[adjudication]
draw = { movenumber = 40, movecount = 8, score = 10 }
resign = { movecount = 3, score = 400 }
[openings]
file = "Books/UHO_Lichess_4852_v1.epd"
format = "epd"
order = "random"
start = 1025
[output]
pgn = "PGNs/4021.77310.1700000000.0.pgn"
pgn_fields = ["seldepth", "nodes"]
event = "Fastchess Tournament"
format = "fastchess"
rating_interval = 10
score_interval = 1
[[engine]]
name = "Ethereal-dev"
workdir = "Engines/"
command = "./Ethereal-6f5e1a"
tc = "8.00+0.08"
time_margin = 250
options = { Threads = 1, Hash = 16 }
[[engine]]
name = "Ethereal-base"
workdir = "Engines/"
command = "./Ethereal-0a9c2d"
tc = "8.00+0.08"
time_margin = 250
options = { Threads = 1, Hash = 16 }
)",
     nullptr,
     nullptr,
     {}},

    {"OpenBench Client/worker.py (cutechess-ob, before fastchess)",
     R"(-repeat -recover -variant standard -concurrency 4 -games 16
        -openings file=Books/8moves_v3.pgn format=pgn order=random start=9 -srand 77
        -engine dir=Engines/ cmd=./Weiss-dev proto=uci tc=10.00+0.10 timemargin=250
          option.Threads=1 option.Hash=8 name=Weiss-dev
        -engine dir=Engines/ cmd=./Weiss-base proto=uci tc=10.00+0.10 timemargin=250
          option.Threads=1 option.Hash=8 name=Weiss-base
        -pgnout PGNs/12.34.1700000000.0.pgn)",
     R"([tournament]
games = 16
repeat = true
concurrency = 4
seed = 77
recover = true
[openings]
file = "Books/8moves_v3.pgn"
format = "pgn"
order = "random"
start = 9
[output]
pgn = "PGNs/12.34.1700000000.0.pgn"
event = "?"
format = "cutechess"
report_penta = false
score_interval = 1
[[engine]]
name = "Weiss-dev"
workdir = "Engines/"
command = "./Weiss-dev"
tc = "10.00+0.10"
time_margin = 250
options = { Threads = 1, Hash = 8 }
[[engine]]
name = "Weiss-base"
workdir = "Engines/"
command = "./Weiss-base"
tc = "10.00+0.10"
time_margin = 250
options = { Threads = 1, Hash = 8 }
)",
     nullptr,
     nullptr,
     {}},

    {"fastchess man page, EXAMPLES",
     R"(-engine cmd=Engine1.exe name=Engine1 -engine cmd=Engine2.exe
        name=Engine2 -openings file=book.epd format=epd order=random
        -each tc=60+0.6 option.Hash=64 -rounds 200 -repeat -concurrency 4)",
     R"([tournament]
recover = false
rounds = 100
games = 2
repeat = true
concurrency = 4
[openings]
file = "book.epd"
order = "random"
[output]
event = "?"
format = "cutechess"
report_penta = false
score_interval = 1
[[engine]]
name = "Engine1"
command = "Engine1.exe"
tc = "60+0.6"
options = { Hash = 64 }
[[engine]]
name = "Engine2"
command = "Engine2.exe"
tc = "60+0.6"
options = { Hash = 64 }
)",
     nullptr,
     nullptr,
     {"read as a cutechess-cli command line", "fastchess would play 400 games"}},

    {"fastchess README, Example usage",
     R"(-engine cmd=Engine1.exe name=Engine1 -engine cmd=Engine2.exe name=Engine2
        -each tc=10+0.1 -rounds 200 -repeat -concurrency 4)",
     R"([tournament]
recover = false
rounds = 100
games = 2
repeat = true
concurrency = 4
[output]
event = "?"
format = "cutechess"
report_penta = false
score_interval = 1
[[engine]]
name = "Engine1"
command = "Engine1.exe"
tc = "10+0.1"
[[engine]]
name = "Engine2"
command = "Engine2.exe"
tc = "10+0.1"
)",
     nullptr,
     nullptr,
     {"read as a cutechess-cli command line"}},

    {"a fastchess user's log line (fastchess issue tracker): -log engine=true twice",
     R"(-engine dir=G:/Github/Stockfish/src/ name=b1 -engine dir=G:/Github/Stockfish/src/
        name=b2 -each cmd=stockfish.exe tc=1+0.01 -recover -concurrency 10
        -openings file=openings.epd -rounds 5000 -repeat -pgnout sprt-2582.pgn
        -log file=log.txt engine=true level=trace engine=true)",
     R"([tournament]
rounds = 5000
games = 2
repeat = true
concurrency = 10
recover = true
[openings]
file = "openings.epd"
order = "sequential"
[output]
pgn = "sprt-2582.pgn"
log = "log.txt"
log_engine = true
event = "Fastchess Tournament"
format = "fastchess"
rating_interval = 10
score_interval = 1
[[engine]]
name = "b1"
workdir = "G:/Github/Stockfish/src/"
command = "stockfish.exe"
tc = "1+0.01"
[[engine]]
name = "b2"
workdir = "G:/Github/Stockfish/src/"
command = "stockfish.exe"
tc = "1+0.01"
)",
     nullptr,
     nullptr,
     {"read as a fastchess command line (-log)"}},

    {"cutechess-cli man page, EXAMPLES 1 (two Sloppy engines over xboard)",
     "-engine cmd=sloppy -engine cmd=sloppy -each proto=xboard tc=40/60 -rounds 10",
     nullptr,
     "-engine #2",
     "duplicate engine name 'sloppy'",
     {}},

    {"cutechess-cli man page, EXAMPLES 2 (Atak and Glaurung, the old -both)",
     R"(-engine name=Atak cmd=Atak32.exe dir=C:\eatak proto=xboard -engine cmd=glaurung
        proto=uci option.Threads=1 -both tc=40/1:30+1)",
     nullptr,
     "-both",
     "unknown option",
     {}},

    {"cutechess-cli man page, EXAMPLES 3 (engines from engines.json, a Polyglot book)",
     R"(-engine conf=Fruit -engine conf=Crafty -engine conf=Stockfish -engine conf=Sloppy
        -each tc=4 book=book.bin -games 2 -rounds 10 -repeat)",
     nullptr,
     "-engine #1",
     "engines.json",
     {}},

    {"the same round robin with UCI engines named on the command line: 4 engines, 120 games",
     R"(-engine cmd=fruit -engine cmd=crafty -engine cmd=stockfish -engine cmd=sloppy
        -each proto=uci tc=4 -games 2 -rounds 10 -repeat)",
     R"([tournament]
recover = false
rounds = 10
games = 2
repeat = true
[output]
event = "?"
format = "cutechess"
report_penta = false
score_interval = 1
[[engine]]
name = "fruit"
command = "fruit"
tc = "4"
[[engine]]
name = "crafty"
command = "crafty"
tc = "4"
[[engine]]
name = "stockfish"
command = "stockfish"
tc = "4"
[[engine]]
name = "sloppy"
command = "sloppy"
tc = "4"
)",
     nullptr,
     nullptr,
     {}},

    {"Maelstrom README, SPRT command (cutechess-cli)",
     R"(-engine proto=uci cmd=./maelstrom-new name=new -engine proto=uci cmd=./maelstrom-3.1.0
        name=v3.1.0 -each tc=8+0.08 option.Hash=32 -games 2 -rounds 1000 -repeat -concurrency 8
        -openings file=UHO_4060_v2.epd format=epd order=random -pgnout sprt.pgn
        -sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 -ratinginterval 10)",
     R"([tournament]
recover = false
rounds = 1000
games = 2
repeat = true
concurrency = 8
[openings]
file = "UHO_4060_v2.epd"
format = "epd"
order = "random"
[output]
pgn = "sprt.pgn"
event = "?"
format = "cutechess"
report_penta = false
rating_interval = 10
score_interval = 1
[sprt]
elo0 = 0
elo1 = 5
alpha = 0.05
beta = 0.1
model = "cutechess"
[[engine]]
name = "new"
command = "./maelstrom-new"
tc = "8+0.08"
options = { Hash = 32 }
[[engine]]
name = "v3.1.0"
command = "./maelstrom-3.1.0"
tc = "8+0.08"
options = { Hash = 32 }
)",
     nullptr,
     nullptr,
     {}},

    {"viridithas selfplay script (cutechess-cli): -rounds alone, pgnout fi",
     R"(-engine cmd=target/release/viridithas name=dev -engine cmd=target/release/viridithas
        name=dev2 -each timemargin=400 proto=uci tc=100/8+0.08 -rounds 300000 -concurrency 60
        -openings file=../uhobook.pgn format=pgn -pgnout selfplay.pgn fi)",
     R"([tournament]
recover = false
rounds = 300000
games = 1
repeat = false
concurrency = 60
[openings]
file = "../uhobook.pgn"
format = "pgn"
order = "sequential"
[output]
pgn = "selfplay.pgn"
event = "?"
format = "cutechess"
report_penta = false
score_interval = 1
[[engine]]
name = "dev"
command = "target/release/viridithas"
tc = "100/8+0.08"
time_margin = 400
[[engine]]
name = "dev2"
command = "target/release/viridithas"
tc = "100/8+0.08"
time_margin = 400
)",
     nullptr,
     nullptr,
     {}},

    {"R2Chess Makefile (cutechess-cli) against a limited Stockfish",
     R"(-engine name="R2Chess" cmd="build/R2Chess" proto=uci -engine name="SF_2500"
        cmd="stockfish" proto=uci option.UCI_LimitStrength=true option.UCI_Elo=2500
        option.Threads=1 -each tc=40/60 -rounds 10 -games 2 -repeat -pgnout files/matches.pgn)",
     R"([tournament]
recover = false
rounds = 10
games = 2
repeat = true
[output]
pgn = "files/matches.pgn"
event = "?"
format = "cutechess"
report_penta = false
score_interval = 1
[[engine]]
name = "R2Chess"
command = "build/R2Chess"
tc = "40/60"
[[engine]]
name = "SF_2500"
command = "stockfish"
tc = "40/60"
options = { UCI_LimitStrength = true, UCI_Elo = 2500, Threads = 1 }
)",
     nullptr,
     nullptr,
     {}},

    {"rivalchess script (cutechess-cli): java engines, per-engine Polyglot book, -debug",
     R"(-engine cmd="java -jar /home/c/Chess/rival.jar" -engine
        cmd="java -jar /home/c/Chess/rivalchess-34.0.3-1.jar" -each proto=uci
        book="/home/c/Chess/ProDeo.bin" timemargin=1500 st=0.25 -resign movecount=10 score=600
        -rounds 2 -pgnout test.pgn -epdout test.epd -debug)",
     nullptr,
     "-debug",
     "-log file=FILE engine=true",
     {}},

    {"a cutechess-cli SPRT with restart=on and -debug (elo0 > elo1)",
     R"(-engine cmd=100elo-no-tt -engine cmd=100elo -each tc=100+5 proto=uci restart=on
        -rounds 64 -concurrency 12 -sprt elo0=100 elo1=0 alpha=0.05 beta=0.05
        -openings file=8moves_v3.pgn plies=8 -debug)",
     nullptr,
     "-debug",
     "not supported",
     {}},

    {"OpenBench-style Chess960 book (fastchess): -variant fischerandom",
     R"(-repeat -recover -variant fischerandom -testEnv -concurrency 8 -games 32
        -openings file=Books/DFRC_openings.epd format=epd order=random
        -engine cmd=./a name=a tc=8+0.08 -engine cmd=./b name=b tc=8+0.08)",
     R"([tournament]
rounds = 32
games = 2
repeat = true
concurrency = 8
recover = true
variant = "fischerandom"
[openings]
file = "Books/DFRC_openings.epd"
format = "epd"
order = "random"
[output]
event = "Fastchess Tournament"
format = "fastchess"
rating_interval = 10
score_interval = 1
[[engine]]
name = "a"
command = "./a"
tc = "8+0.08"
[[engine]]
name = "b"
command = "./b"
tc = "8+0.08"
)",
     nullptr,
     nullptr,
     {}},

    {"carp datagen script (cutechess-cli): two unnamed copies of one engine",
     R"(-engine cmd=target/release/carp -engine cmd=target/release/carp
        -each proto=uci option.Hash=32 depth=7 tc=inf -rounds 1 -concurrency 2
        -openings file=UHO_8moves.pgn format=pgn order=random plies=6 -pgnout temp.pgn)",
     nullptr,
     "-engine #2",
     "duplicate engine name 'carp'",
     {}},
};

}  // namespace

TEST_CASE("real command lines of fishtest, OpenBench and both tools' documentation") {
  for (const Row& row : rows) {
    INFO(row.source);
    INFO(row.line);
    auto words = split_words(row.line);
    REQUIRE(words.has_value());
    auto parsed = parse_play_flags(*words);
    if (row.error_key) {
      REQUIRE_FALSE(parsed.has_value());
      INFO(parsed.error().to_string());
      CHECK(parsed.error().key == row.error_key);
      CHECK(parsed.error().message.find(row.error_text) != std::string::npos);
      continue;
    }
    INFO((parsed ? std::string() : parsed.error().to_string()));
    REQUIRE(parsed.has_value());
    auto expected = parse_config_toml(row.toml);
    INFO((expected ? std::string() : expected.error().to_string()));
    REQUIRE(expected.has_value());
    Config got = parsed->config;
    Config want = *expected;
    // A play command is named after what defines its games; everything else must be equal.
    CHECK(got.source_text.find("[[engine]]") != std::string::npos);
    CHECK(got.tournament.name == play_tournament_name(got.source_text));
    CHECK_FALSE(parsed->named);
    got.tournament.name = want.tournament.name;
    got.source_text = want.source_text = "";
    CHECK(got.tournament == want.tournament);
    CHECK(got.engines == want.engines);
    CHECK(got.openings == want.openings);
    CHECK(got.output == want.output);
    CHECK(got.sprt == want.sprt);
    CHECK(got == want);
    for (const char* part : row.notes) {
      INFO(part);
      bool found = false;
      for (const auto& n : parsed->notes) found = found || n.find(part) != std::string::npos;
      CHECK(found);
    }
  }
}

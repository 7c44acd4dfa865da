// OpenBench's and fishtest's workers as clients of `knightly play`: each worker's command line,
// built as its own code builds it, runs to the end against real engine processes, and its
// output is read the way that worker reads it.
//   OpenBench: Client/worker.py (AndyGrant/OpenBench), MatchRunner.*_settings and
//              update_results: every `Finished game N (A vs B): RESULT {reason}` line, games
//              2k-1 and 2k paired into a pentanomial from the first engine's side.
//   fishtest:  worker/games.py (official-stockfish/fishtest), launch_fastchess's command and
//              parse_fastchess_output: its two patterns on every results block, Games = 2 x
//              sum(Ptnml), batches of games_concurrency * 4, and "Finished match".
#include <sys/stat.h>

#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "engine/chess/pgn.h"
#include "sqlite_probe.h"
#include "tests/support/process.h"
#include "tests/test_data.h"

using namespace knightly::test;

namespace {

// An engine program as the workers run one (no arguments of their own): the mock engine with
// its own seed, so the two engines' games differ.
std::string engine_script(TempDir& dir, const std::string& name, int seed) {
  const std::string path = dir.file(name);
  write_file(path, "#!/bin/sh\nexec '" + mock_engine_binary() + "' --seed " + std::to_string(seed) +
                       " \"$@\"\n");
  ::chmod(path.c_str(), 0755);
  return path;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> split_ws(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// OpenBench's MatchRunner.update_results, line for line.
struct OpenBenchResults {
  std::array<int, 3> trinomial{};    // LDW
  std::array<int, 5> pentanomial{};  // LL DL DD DW WW
  std::map<int, std::string> games;  // game number -> result text
  int crashes = 0, timelosses = 0, illegals = 0;

  void update(const std::string& line) {
    // reason = line.split(':')[1]
    const auto colon = line.find(':');
    const auto next = line.find(':', colon + 1);
    const std::string reason = line.substr(colon + 1, next - colon - 1);
    crashes += reason.find("disconnect") != std::string::npos ||
               reason.find("stalls") != std::string::npos;
    timelosses += reason.find("on time") != std::string::npos;
    illegals += reason.find("illegal") != std::string::npos;
    // tokens = line.split(); return int(tokens[2]), tokens[6]
    const auto tokens = split_ws(line);
    REQUIRE(tokens.size() > 6);
    const int game = std::stoi(tokens[2]);
    games[game] = tokens[6];
    const int first = game % 2 ? game : game - 1, second = first + 1;
    if (!games.count(first) || !games.count(second)) return;
    static const std::map<std::string, int> lookup = {{"0-1", 0}, {"1/2-1/2", 1}, {"1-0", 2}};
    REQUIRE(lookup.count(games[first]));
    REQUIRE(lookup.count(games[second]));
    const int r1 = lookup.at(games[first]), r2 = lookup.at(games[second]);
    pentanomial[std::size_t(r1 + 2 - r2)] += 1;
    trinomial[std::size_t(r1)] += 1;
    trinomial[std::size_t(2 - r2)] += 1;
    games.erase(first);
    games.erase(second);
  }
};

// The first engine's points in one game of a PGN, from its tags.
double points_of(const knightly::chess::PgnGame& g, const std::string& engine) {
  const std::string r = g.result;
  if (r == "1/2-1/2") return 0.5;
  const bool white_won = r == "1-0";
  return (g.tag("White") == engine) == white_won ? 1.0 : 0.0;
}

}  // namespace

TEST_CASE("OpenBench's worker line runs, and its reading of the output is the PGN's pairs",
          "[cli][clients]") {
  TempDir dir;
  std::filesystem::create_directories(dir.file("Engines"));
  std::filesystem::create_directories(dir.file("Books"));
  std::filesystem::create_directories(dir.file("PGNs"));
  engine_script(dir, "Engines/Ethereal-6f5e1a", 11);
  engine_script(dir, "Engines/Ethereal-0a9c2d", 29);
  write_file(dir.file("Books/openbench.epd"), read_file(data_path("books/2moves_v1.epd")));
  const std::string pgn = dir.file("PGNs/4021.77310.1700000000.0.pgn");
  // As MatchRunner builds it: basic, concurrency, adjudication, the two engines, the book,
  // pgnout; then shlex.split (the quoted match_line is one word without its quotes).
  const std::string rounds = "6";  // rounds-per-runner: -games 2 each, 12 games
  std::vector<std::string> cmd = {knightly_binary(),
                                  "play",
                                  "-recover",
                                  "-variant",
                                  "standard",
                                  "-testEnv",
                                  "-concurrency",
                                  "2",
                                  "-rounds",
                                  rounds,
                                  "-games",
                                  "2",
                                  "-resign",
                                  "movecount=3",
                                  "score=400",
                                  "-draw",
                                  "movenumber=40",
                                  "movecount=8",
                                  "score=10",
                                  "-engine",
                                  "dir=" + dir.file("Engines") + "/",
                                  "cmd=./Ethereal-6f5e1a",
                                  "proto=uci",
                                  "tc=8.00+0.08",
                                  "option.Threads=1",
                                  "option.Hash=16",
                                  "name=Ethereal-dev",
                                  "-engine",
                                  "dir=" + dir.file("Engines") + "/",
                                  "cmd=./Ethereal-0a9c2d",
                                  "proto=uci",
                                  "tc=8.00+0.08",
                                  "option.Threads=1",
                                  "option.Hash=16",
                                  "name=Ethereal-base",
                                  "-openings",
                                  "file=" + dir.file("Books/openbench.epd"),
                                  "format=epd",
                                  "order=random",
                                  "start=1025",
                                  "-srand",
                                  "2718281828",
                                  "-pgnout",
                                  "file=" + pgn,
                                  "seldepth=true",
                                  "nodes=true",
                                  "match_line=^info string pgncomment .*",
                                  "-db",
                                  dir.file("ob.db")};
  auto r = run_process(cmd, 600);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Finished match") != std::string::npos);

  // run_and_parse_runner: every "Finished game" line into update_results.
  OpenBenchResults ob;
  int finished = 0;
  for (const auto& line : lines_of(r.out))
    if (line.find("Finished game") != std::string::npos) {
      ob.update(line);
      ++finished;
    }
  CHECK(finished == 12);
  CHECK(ob.games.empty());  // every game found its partner: 2k-1 with 2k
  int pairs = 0;
  for (int n : ob.pentanomial) pairs += n;
  CHECK(pairs == 6);

  // The PGN: games 2k-1 and 2k start from one opening with the colours reversed, and their
  // pentanomial from the first engine's side is the one OpenBench read.
  auto read = knightly::chess::read_pgn(read_file(pgn));
  REQUIRE(read.errors.empty());
  REQUIRE(read.games.size() == 12);
  std::array<int, 5> from_pgn{};
  for (std::size_t k = 0; k + 1 < read.games.size(); k += 2) {
    const auto& a = read.games[k];
    const auto& b = read.games[k + 1];
    INFO("games " << k + 1 << " and " << k + 2);
    CHECK(a.start_fen == b.start_fen);
    CHECK(a.tag("White") == b.tag("Black"));
    CHECK(a.tag("White") == "Ethereal-dev");  // OpenBench's reading assumes it
    const double points = points_of(a, "Ethereal-dev") + points_of(b, "Ethereal-dev");
    from_pgn[std::size_t(points * 2)] += 1;
  }
  CHECK(from_pgn == ob.pentanomial);
  // A pair's two games share their opening; the six pairs drew six openings of the book.
  std::set<std::string> openings;
  for (const auto& g : read.games) openings.insert(g.start_fen);
  CHECK(openings.size() == 6);
}

TEST_CASE("fishtest's worker line runs to the end, every results block as fishtest reads it",
          "[cli][clients]") {
  TempDir dir;
  const std::string new_engine = engine_script(dir, "stockfish_e443b2459e", 3);
  const std::string base_engine = engine_script(dir, "stockfish_0a9c2d1f7b", 5);
  write_file(dir.file("UHO_Lichess_4852_v1.epd"), read_file(data_path("books/noob_3moves.epd")));
  const int games_to_play = 16, concurrency = 2;
  const std::string pgn = dir.file("results-65f1c8-7.pgn");
  // launch_fastchess's cmd, as games.py builds it for a test of games_to_play games; the
  // -srand is sha1(run id) % 2^64, above 2^63 here as for most runs.
  std::vector<std::string> cmd = {knightly_binary(),
                                  "play",
                                  "-testEnv",
                                  "-recover",
                                  "-repeat",
                                  "-games",
                                  "2",
                                  "-rounds",
                                  std::to_string(games_to_play / 2),
                                  "-ratinginterval",
                                  "1",
                                  "-scoreinterval",
                                  "1",
                                  "-autosaveinterval",
                                  "0",
                                  "-report",
                                  "penta=true",
                                  "-pgnout",
                                  "file=" + pgn,
                                  "append=false",
                                  "-crc32",
                                  "pgn=true",
                                  "-site",
                                  "https://tests.stockfishchess.org/tests/view/65f1c8",
                                  "-event",
                                  "Batch 7: New-e443b2459e vs Base-0a9c2d1f7b",
                                  "-srand",
                                  "14757395258967641292",
                                  "-resign",
                                  "movecount=3",
                                  "score=600",
                                  "-draw",
                                  "movenumber=34",
                                  "movecount=8",
                                  "score=20",
                                  "-variant",
                                  "standard",
                                  "-concurrency",
                                  std::to_string(concurrency),
                                  "-openings",
                                  "file=" + dir.file("UHO_Lichess_4852_v1.epd"),
                                  "format=epd",
                                  "order=random",
                                  "plies=16",
                                  "start=1",
                                  "-check-mate-pvs",
                                  "-engine",
                                  "name=New-e443b2459e",
                                  "tc=10.0+0.10",
                                  "cmd=" + new_engine,
                                  "dir=.",
                                  "option.Hash=16",
                                  "-engine",
                                  "name=Base-0a9c2d1f7b",
                                  "tc=10.0+0.10",
                                  "cmd=" + base_engine,
                                  "dir=.",
                                  "option.Hash=16",
                                  "-each",
                                  "proto=uci",
                                  "option.Threads=1",
                                  "-db",
                                  dir.file("fishtest.db")};
  auto r = run_process(cmd, 600, dir.path().string());
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);  // fishtest raises on any other return code

  // parse_fastchess_output, on every line of stdout and stderr.
  const std::regex pattern_wld(
      R"(Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), Draws: ([0-9]+), Points: ([0-9.]+) \()");
  const std::regex pattern_ptnml(
      R"(Ptnml\(0-2\): \[([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+)\])");
  const std::regex fastchess_error(
      R"(Warning;.*doesn't have option|Warning; Invalid value for option|Warning; Illegal move)");
  const int batch_size = concurrency * 4;
  std::optional<std::array<int, 4>> wld;
  std::optional<std::array<int, 5>> ptnml;
  int updated = 0, blocks = 0;
  bool finished_cleanly = false;
  std::string crc;
  for (const auto& line : lines_of(r.out + r.err)) {
    INFO(line);
    CHECK_FALSE(std::regex_search(line, fastchess_error));
    if (line.find("has CRC32:") != std::string::npos) crc = split_ws(line).back();
    if (line.find("Finished match") != std::string::npos)
      finished_cleanly = updated == games_to_play;
    std::smatch m;
    if (std::regex_search(line, m, pattern_wld))
      wld = std::array<int, 4>{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4])};
    if (std::regex_search(line, m, pattern_ptnml))
      ptnml = std::array<int, 5>{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4]),
                                 std::stoi(m[5])};
    if (wld && ptnml) {
      ++blocks;
      const int games = (*wld)[0];
      int pairs = 0;
      for (int n : *ptnml) pairs += n;
      // assert 2 * sum(pentanomial) == wins + losses + draws, and the games count it.
      CHECK(2 * pairs == (*wld)[1] + (*wld)[2] + (*wld)[3]);
      CHECK(games == 2 * pairs);
      CHECK(games <= updated + batch_size);
      CHECK(games <= games_to_play);
      if (games == updated + batch_size || games == games_to_play) updated = games;
      wld.reset();
      ptnml.reset();
    }
    // fishtest reads these blocks; a figure it cannot read is never printed.
    if (line.find("Ratio") != std::string::npos || line.find("LLR") != std::string::npos) {
      CHECK(line.find("inf") == std::string::npos);
      CHECK(line.find("nan") == std::string::npos);
    }
  }
  CHECK(blocks >= games_to_play);  // one after every game (-ratinginterval 1), and the last
  CHECK(finished_cleanly);
  CHECK(updated == games_to_play);
  CHECK_FALSE(crc.empty());
  SqliteProbe db(dir.file("fishtest.db"));
  CHECK(db.count("SELECT count(*) FROM games") == games_to_play);
  CHECK(read_file(pgn).find("[Event \"Batch 7: New-e443b2459e vs Base-0a9c2d1f7b\"]") !=
        std::string::npos);
}

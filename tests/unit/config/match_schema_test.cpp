// The match schema: one row for every option of cutechess-cli and fastchess (from their own
// option tables), every row's front ends able to read it, and docs/cli.md's option table
// written from it.
#include "runner/config/match_schema.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "runner/config/config_toml.h"
#include "runner/config/play_flags.h"
#include "tests/test_data.h"

using namespace knightly::runner;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool has_row(const std::string& flag, const std::string& word = "") {
  for (const MatchKey* k : keys_by_flag(flag))
    if (k->word == word) return true;
  return false;
}

}  // namespace

TEST_CASE("every option of cutechess-cli and fastchess has a row of the schema") {
  // cutechess/cutechess projects/cli/src/main.cpp: parseMatch's addOption list, main()'s
  // -version/-engines/-help, and parseEngine's keys.
  for (const char* flag :
       {"-srand",       "-tournament",     "-engine",          "-each",         "-variant",
        "-concurrency", "-draw",           "-resign",          "-maxmoves",     "-tb",
        "-tbpieces",    "-tbignore50",     "-event",           "-games",        "-rounds",
        "-sprt",        "-ratinginterval", "-outcomeinterval", "-resultformat", "-debug",
        "-openings",    "-bookmode",       "-pgnout",          "-epdout",       "-repeat",
        "-noswap",      "-reverse",        "-recover",         "-site",         "-wait",
        "-seeds",       "-version",        "-engines",         "-help"}) {
    INFO(flag);
    CHECK(!keys_by_flag(flag).empty());
    CHECK(keys_by_flag(flag).front()->cutechess.support != Support::Absent);
  }
  for (const char* key :
       {"conf",  "name",   "cmd",    "dir",   "arg",         "proto", "initstr",   "restart",
        "trust", "tscale", "tc",     "st",    "timemargin",  "book",  "bookdepth", "whitepov",
        "depth", "nodes",  "ponder", "debug", "option.NAME", "stderr"}) {
    INFO(key);
    CHECK(has_row("-engine", key));
  }
  // Disservin/fastchess app/src/cli/cli.cpp: registerOptions() and parseEngineKeyValues.
  for (const char* flag : {"-engine",
                           "-each",
                           "-pgnout",
                           "-epdout",
                           "-openings",
                           "-sprt",
                           "-draw",
                           "-resign",
                           "-maxmoves",
                           "-tb",
                           "-tbpieces",
                           "-tbignore50",
                           "-tbadjudicate",
                           "-autosaveinterval",
                           "-log",
                           "-config",
                           "-report",
                           "-output",
                           "-concurrency",
                           "-crc32",
                           "-force-concurrency",
                           "-event",
                           "-site",
                           "-games",
                           "-rounds",
                           "-wait",
                           "-noswap",
                           "-reverse",
                           "-ratinginterval",
                           "-scoreinterval",
                           "-srand",
                           "-seeds",
                           "-version",
                           "-help",
                           "-recover",
                           "-repeat",
                           "-variant",
                           "-tournament",
                           "-quick",
                           "-use-affinity",
                           "-check-mate-pvs",
                           "-show-latency",
                           "-debug",
                           "-testEnv",
                           "-strict",
                           "-startup-ms",
                           "-ucinewgame-ms",
                           "-ping-ms"}) {
    INFO(flag);
    CHECK(!keys_by_flag(flag).empty());
    CHECK(keys_by_flag(flag).front()->fastchess.support != Support::Absent);
  }
  for (const char* key : {"cmd", "name", "tc", "st", "timemargin", "nodes", "plies", "depth", "dir",
                          "args", "restart", "option.NAME", "proto"}) {
    INFO(key);
    CHECK(has_row("-engine", key));
  }
  for (const char* word : {"file", "append", "nodes", "seldepth", "nps", "hashfull", "tbhits",
                           "timeleft", "latency", "min", "notation", "match_line", "pv"}) {
    INFO(word);
    CHECK(has_row("-pgnout", word));
  }
}

TEST_CASE("every row is read by the front ends that spell it") {
  for (const MatchKey& k : match_schema()) {
    INFO((k.toml.empty() ? k.flag.empty() ? k.knightly : k.flag : k.toml));
    // A row a parser reads from its type sets something; a refused one sets nothing.
    if (!k.refused.empty() && k.no_effect.empty()) CHECK(k.apply == nullptr);
    // knightly play reads a flag by its row or by its handler.
    if (!k.flag.empty() && (k.custom & CustomFlag)) CHECK(play_flag_parsed_by_code(k.flag));
    if (!k.flag.empty() && k.word.empty() && !(k.custom & CustomFlag) && k.refused.empty() &&
        k.no_effect.empty() && k.type != ValueType::Flag && k.role != Role::Name)
      CHECK(k.apply != nullptr);
    // A choice has its words; a range is a range.
    if (k.type == ValueType::Choice) CHECK((k.choices && !k.choices().empty()));
    if (k.type == ValueType::Integer) CHECK(k.min <= k.max);
    // The TOML reader takes every key of the schema it does not parse itself.
    if (!k.toml.empty() && !(k.custom & CustomToml) && k.apply) CHECK(k.toml.find('.') != 0);
  }
  // A TOML key the schema does not have is refused, one it has is read.
  auto unknown = parse_config_toml("[tournament]\nswiss = true\n");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().key == "tournament.swiss");
  const std::string engines =
      "[[engine]]\nname = \"a\"\nbuiltin = true\n[[engine]]\nname = \"b\"\nbuiltin = true\n";
  auto read = parse_config_toml(
      "[tournament]\ncheck_mate_pvs = true\nseed = 0\n[output]\npgn_match_line = \"^info\"\n"
      "epd_append = false\n[sprt]\nmodel = \"cutechess\"\n" +
      engines);
  INFO((read ? std::string() : read.error().to_string()));
  REQUIRE(read);
  CHECK(read->tournament.check_mate_pvs);
  CHECK(read->tournament.seed == std::optional<std::uint64_t>(0));
  CHECK(read->output.pgn_options.match_line == "^info");
  CHECK_FALSE(read->output.epd_append);
  CHECK(read->sprt.model == stats::EloModel::Cutechess);
  auto bad = parse_config_toml("[tournament]\nformat = \"swiss\"\n" + engines);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().key == "tournament.format");
  CHECK(bad.error().message.find("'swiss' is not round-robin or gauntlet") != std::string::npos);
}

TEST_CASE("docs/cli.md's option table is the schema's") {
  const std::string doc = read_text(knightly::test::source_dir() + "/docs/cli.md");
  const std::string begin = "<!-- schema table begin -->\n", end = "<!-- schema table end -->";
  const auto from = doc.find(begin), to = doc.find(end);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  const std::string table = doc.substr(from + begin.size(), to - from - begin.size());
  const std::string want = schema_markdown();
  if (table != want) {
    // The table to paste, beside the build: docs/cli.md is written from the schema.
    const std::string out = knightly::test::binary_dir() + "/cli_option_table.md";
    std::ofstream(out) << want;
    FAIL(
        "docs/cli.md's option table differs from runner/config/match_schema.cpp's rows: the "
        "schema's table is in " +
        out);
  }
}

TEST_CASE("the help of run, play and sprt comes from the schema") {
  const std::string play = schema_help(CommandPlay);
  CHECK(play.find("-concurrency N") != std::string::npos);
  CHECK(play.find("--concurrency N") != std::string::npos);
  CHECK(play.find("-sprt model=normalized|logistic|bayesian|cutechess") != std::string::npos);
  CHECK(play.find("-outcomeinterval") == std::string::npos);  // refused: not offered
  const std::string sprt = schema_help(CommandSprt);
  CHECK(sprt.find("--elo0 X") != std::string::npos);
  CHECK(sprt.find("--max-games N") != std::string::npos);
  CHECK(sprt.find("-sprt elo0") == std::string::npos);
  const std::string run = schema_help(CommandRun);
  CHECK(run.find("--db TARGET") != std::string::npos);
  CHECK(run.find("--pgn FILE") != std::string::npos);
  CHECK(run.find("--elo0") == std::string::npos);
  // Options once missing from the help (issue 30): each command's page lists them.
  for (const char* option : {"--sync", "--stall-timeout", "--perf-stats"}) {
    INFO(option);
    CHECK(run.find(option) != std::string::npos);
  }
  for (const char* option : {"--lease", "--on-stop", "--model", "--quiet", "--sync"}) {
    INFO(option);
    CHECK(sprt.find(option) != std::string::npos);
  }
}

// Every file in configs/ loads, and says what its comments claim.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/config/config_toml.h"
#include "tests/test_data.h"

using namespace knightly::runner;
namespace fs = std::filesystem;

namespace {

Config load(const std::string& name) {
  const std::string path = knightly::test::source_dir() + "/configs/" + name;
  auto c = load_config_file(path);
  INFO((c ? std::string() : c.error().to_string()));
  REQUIRE(c.has_value());
  return *c;
}

}  // namespace

TEST_CASE("every config in configs/ loads") {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(knightly::test::source_dir() + "/configs")) {
    if (entry.path().extension() != ".toml") continue;
    INFO(entry.path().string());
    auto c = load_config_file(entry.path().string());
    INFO((c ? std::string() : c.error().to_string()));
    CHECK(c.has_value());
    ++count;
  }
  CHECK(count >= 4);
}

TEST_CASE("demo.toml: the seeds' AIs as builtin players with random plies") {
  const auto c = load("demo.toml");
  CHECK(c.engines.size() == 6);
  CHECK(std::all_of(c.engines.begin(), c.engines.end(),
                    [](const EngineConfig& e) { return e.builtin; }));
  CHECK(c.openings.file.empty());
  CHECK(c.openings.random_plies > 0);
  CHECK(c.tournament.format == "round-robin");
}

TEST_CASE("stockfish-gauntlet.toml: book file exists, Stockfish limited") {
  const auto c = load("stockfish-gauntlet.toml");
  CHECK(c.tournament.format == "gauntlet");
  CHECK(fs::exists(c.openings.file));
  CHECK(fs::equivalent(c.openings.file, knightly::test::data_path("books/noob_3moves.epd")));
  int limited = 0;
  for (const auto& e : c.engines)
    for (const auto& [name, value] : e.options)
      if (name == "UCI_LimitStrength" && value == "true") ++limited;
  CHECK(limited == 2);
  CHECK(static_cast<std::size_t>(c.tournament.seeds) < c.engines.size());
}

TEST_CASE("regression.toml: two UCI builds of knightly-engine under an SPRT") {
  const auto c = load("regression.toml");
  CHECK(c.sprt.enabled);
  REQUIRE(c.engines.size() == 2);
  for (const auto& e : c.engines) {
    CHECK_FALSE(e.builtin);
    CHECK(fs::path(e.command) ==
          (fs::path(knightly::test::source_dir()) / "build/release/engine/uci/knightly-engine")
              .lexically_normal());
  }
  CHECK(fs::exists(c.openings.file));
}

TEST_CASE("seeds.toml: a round robin of builtin configurations") {
  const auto c = load("seeds.toml");
  CHECK(c.engines.size() >= 10);
  CHECK(std::all_of(c.engines.begin(), c.engines.end(),
                    [](const EngineConfig& e) { return e.builtin; }));
}

TEST_CASE("docs/config.md documents every key the parser accepts") {
  std::ifstream in(knightly::test::source_dir() + "/docs/config.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  for (const char* key :
       {"name",        "format",       "seeds",    "rounds",       "games",      "repeat",
        "concurrency", "seed",         "tc",       "st",           "depth",      "nodes",
        "time_margin", "maxmoves",     "recover",  "adjudication", "movenumber", "movecount",
        "score",       "twosided",     "command",  "args",         "workdir",    "env",
        "builtin",     "options",      "proto",    "file",         "order",      "start",
        "plies",       "random_plies", "database", "pgn", "sync",  "elo0",       "elo1",
        "alpha",       "beta",         "model"}) {
    INFO(key);
    std::string needle = "`";
    needle += key;
    needle += "`";
    CHECK(doc.find(needle) != std::string::npos);
  }
}

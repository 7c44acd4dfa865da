// Every file in configs/ loads, and says what its comments claim.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/chess/position.h"
#include "runner/config/config_toml.h"
#include "runner/config/match_schema.h"
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
  for (const auto& entry :
       fs::recursive_directory_iterator(knightly::test::source_dir() + "/configs")) {
    if (entry.path().extension() != ".toml") continue;
    INFO(entry.path().string());
    auto c = load_config_file(entry.path().string());
    INFO((c ? std::string() : c.error().to_string()));
    CHECK(c.has_value());
    ++count;
  }
  CHECK(count >= 4);
}

TEST_CASE("the seed-claim experiments: ladders expanded, their input files shipped") {
  const auto depth = load("experiments/claim5-depth-fixed.toml");
  REQUIRE(depth.engines.size() == 6);
  for (int d = 1; d <= 6; ++d) {
    CHECK(depth.engines[d - 1].name == "ab-depth" + std::to_string(d));
    CHECK(depth.engines[d - 1].limits.depth == d);
  }
  const auto eval = load("experiments/claim4-eval-time.toml");
  REQUIRE(eval.engines.size() == 4);
  CHECK(eval.engines[1].name == "ab-Eval=material+pst");
  CHECK_FALSE(eval.tournament.defaults.depth);  // equal time: depth unlimited
  CHECK(eval.tournament.defaults.tc->movetime_ms == 50);
  for (const auto& entry :
       fs::directory_iterator(knightly::test::source_dir() + "/configs/experiments")) {
    if (entry.path().extension() != ".toml") continue;
    INFO(entry.path().string());
    const auto c = load("experiments/" + entry.path().filename().string());
    if (!c.openings.file.empty()) CHECK(fs::exists(c.openings.file));
    for (const auto& e : c.engines)
      for (const auto& [name, value] : e.options)
        if (name == "BookFile") CHECK(fs::exists(value));
  }
}

TEST_CASE("demo.toml: the seeds' AIs as builtin players with random plies") {
  const auto c = load("demo.toml");
  CHECK(c.engines.size() == 6);
  CHECK(std::all_of(c.engines.begin(), c.engines.end(),
                    [](const EngineConfig& e) { return e.builtin; }));
  CHECK(c.openings.file.empty());
  CHECK(c.openings.random_plies > 0);
  CHECK(choice_name(c.tournament.format) == "round-robin");
}

TEST_CASE("stockfish-gauntlet.toml: book file exists, Stockfish limited") {
  const auto c = load("stockfish-gauntlet.toml");
  CHECK(choice_name(c.tournament.format) == "gauntlet");
  CHECK(fs::exists(c.openings.file));
  // The book ships with the project: no path outside it.
  CHECK(fs::equivalent(c.openings.file,
                       knightly::test::source_dir() + "/configs/books/noob_3moves_3k.epd"));
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
  // Every TOML key of the match schema (the parser reads no other), and the two spellings the
  // parser takes beside them.
  std::vector<std::string> keys = {"adjudication", "protocol", "ladder"};
  for (const auto& row : match_schema()) {
    if (row.toml.find('.') == std::string_view::npos) continue;  // [[engine]] itself
    const std::string toml(row.toml);
    keys.push_back(toml.substr(toml.rfind('.') + 1));
  }
  for (const auto& key : keys) {
    INFO(key);
    const std::string needle = "`" + key + "`";
    CHECK(doc.find(needle) != std::string::npos);
  }
}

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("the shipped book: 3,019 legal positions, its source named beside it") {
  const std::string dir = knightly::test::source_dir() + "/configs/books";
  std::ifstream in(dir + "/noob_3moves_3k.epd");
  REQUIRE(in);
  int lines = 0;
  for (std::string line; std::getline(in, line); ++lines) {
    INFO(line);
    CHECK(knightly::chess::Position::from_fen(line).has_value());
  }
  CHECK(lines == 3019);
  const std::string source = read_text(dir + "/README.md");
  CHECK(source.find("noob_3moves_3k.epd") != std::string::npos);
  CHECK(source.find("official-stockfish/books") != std::string::npos);
  CHECK(source.find("CC0") != std::string::npos);
}

TEST_CASE("no config, README or docs example points outside the project") {
  for (const auto& entry : fs::directory_iterator(knightly::test::source_dir() + "/configs")) {
    if (entry.path().extension() != ".toml") continue;
    INFO(entry.path().string());
    const auto c = load(entry.path().filename().string());
    CHECK(read_text(entry.path().string()).find("shared/data") == std::string::npos);
    if (!c.openings.file.empty()) {
      const auto rel = fs::relative(c.openings.file, knightly::test::source_dir()).string();
      CHECK(rel.rfind("..", 0) != 0);
      CHECK(fs::exists(c.openings.file));
    }
  }
}

// A clone with nothing beside it passes its own tests: no file of the project reads or cites
// the directory beside the project that its first checkouts had. The text is assembled so
// that this file does not match itself.
TEST_CASE("nothing in the project points to a directory beside it") {
  const std::string outside = std::string("../") + "shared";
  const fs::path root = knightly::test::source_dir();
  int files = 0;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name == ".git" || name == "node_modules" ||
                               (it.depth() == 0 && name.starts_with("build")))) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || it->file_size() > 4'000'000) continue;
    ++files;
    INFO(it->path().string());
    CHECK(read_text(it->path().string()).find(outside) == std::string::npos);
  }
  CHECK(files > 300);
}

// tests/data/SOURCES.md names every file of tests/data: where it comes from, its licence.
TEST_CASE("every file of tests/data is listed in its SOURCES.md") {
  const fs::path data = fs::path(knightly::test::source_dir()) / "tests" / "data";
  const std::string sources = read_text((data / "SOURCES.md").string());
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(data)) {
    if (!entry.is_regular_file() || entry.path().filename() == "SOURCES.md") continue;
    ++files;
    const std::string rel = fs::relative(entry.path(), data).string();
    // The PGN edge cases are listed as one group (pgn/*.pgn).
    const std::string listed = rel.starts_with("pgn/") ? "pgn/*.pgn" : rel;
    INFO(rel);
    CHECK(sources.find(listed) != std::string::npos);
  }
  CHECK(files > 30);
}

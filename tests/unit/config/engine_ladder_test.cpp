// Ladders: one [[engine]] table expanded into one engine per value (engine_ladder.h), directly
// and through the TOML parser, with every bad ladder named by line and column.
#include "runner/config/engine_ladder.h"

#include <catch2/catch.hpp>

#include "runner/config/config_toml.h"

using namespace knightly::runner;

namespace {

using Kind = LadderValue::Kind;

EngineConfig builtin_ab() {
  EngineConfig e;
  e.name = "ab";
  e.builtin = true;
  e.options = {{"Search", "alphabeta"}};
  return e;
}

ConfigError error_of(const std::string& text) {
  auto result = parse_config_toml(text, "l.toml");
  REQUIRE_FALSE(result.has_value());
  INFO(result.error().to_string());
  return result.error();
}

}  // namespace

TEST_CASE("a depth ladder is one engine per depth, named by it, the rest copied") {
  auto steps = expand_ladder(builtin_ab(), {"depth", {{Kind::Integer, "1"}, {Kind::Integer, "3"}}});
  REQUIRE(steps.has_value());
  REQUIRE(steps->size() == 2);
  CHECK((*steps)[0].name == "ab-depth1");
  CHECK((*steps)[1].name == "ab-depth3");
  CHECK((*steps)[0].limits.depth == 1);
  CHECK((*steps)[1].limits.depth == 3);
  for (const auto& e : *steps) {
    CHECK(e.builtin);
    CHECK(e.options == builtin_ab().options);
    CHECK_FALSE(e.limits.tc);
  }
}

TEST_CASE("nodes, st, tc and option ladders set their own setting") {
  auto nodes = expand_ladder(builtin_ab(), {"nodes", {{Kind::Integer, "500"}}});
  REQUIRE(nodes.has_value());
  CHECK((*nodes)[0].limits.nodes == 500u);
  CHECK((*nodes)[0].name == "ab-nodes500");

  auto st = expand_ladder(builtin_ab(), {"st", {{Kind::Float, "0.25"}, {Kind::Integer, "2"}}});
  REQUIRE(st.has_value());
  CHECK((*st)[0].limits.tc->movetime_ms == 250);
  CHECK((*st)[1].limits.tc->movetime_ms == 2000);
  CHECK((*st)[0].name == "ab-st0.25");

  auto tc = expand_ladder(builtin_ab(), {"tc", {{Kind::String, "10+0.1"}}});
  REQUIRE(tc.has_value());
  CHECK((*tc)[0].limits.tc->time_ms == 10000);
  CHECK((*tc)[0].limits.tc->increment_ms == 100);
  CHECK((*tc)[0].name == "ab-tc10+0.1");

  auto eval = expand_ladder(
      builtin_ab(), {"options.Eval", {{Kind::String, "material"}, {Kind::String, "material+pst"}}});
  REQUIRE(eval.has_value());
  CHECK((*eval)[1].name == "ab-Eval=material+pst");
  CHECK((*eval)[1].options.back() == std::pair<std::string, std::string>("Eval", "material+pst"));
  CHECK((*eval)[1].options.front().first == "Search");
}

TEST_CASE("bad ladders are refused naming the value or the key") {
  auto key = expand_ladder(builtin_ab(), {"dept", {{Kind::Integer, "1"}}});
  REQUIRE_FALSE(key.has_value());
  CHECK(key.error().value == LadderError::npos);
  CHECK(key.error().message.find("did you mean 'depth'") != std::string::npos);

  auto empty = expand_ladder(builtin_ab(), {"depth", {}});
  REQUIRE_FALSE(empty.has_value());
  CHECK(empty.error().message.find("at least one value") != std::string::npos);

  auto kind = expand_ladder(builtin_ab(), {"depth", {{Kind::Integer, "2"}, {Kind::String, "3"}}});
  REQUIRE_FALSE(kind.has_value());
  CHECK(kind.error().value == 1);
  CHECK(kind.error().message.find("expected an integer depth, got a string") != std::string::npos);

  auto range = expand_ladder(builtin_ab(), {"depth", {{Kind::Integer, "0"}}});
  REQUIRE_FALSE(range.has_value());
  CHECK(range.error().message == "depth: '0' is not an integer in [1, 1000]");

  auto twice = expand_ladder(builtin_ab(), {"depth", {{Kind::Integer, "2"}, {Kind::Integer, "2"}}});
  REQUIRE_FALSE(twice.has_value());
  CHECK(twice.error().value == 1);
  CHECK(twice.error().message.find("given twice") != std::string::npos);

  auto tc = expand_ladder(builtin_ab(), {"tc", {{Kind::String, "40/abc"}}});
  REQUIRE_FALSE(tc.has_value());
  CHECK(tc.error().message.find("bad time control '40/abc'") != std::string::npos);

  EngineConfig deep = builtin_ab();
  deep.limits.depth = 4;
  auto both = expand_ladder(deep, {"depth", {{Kind::Integer, "2"}}});
  REQUIRE_FALSE(both.has_value());
  CHECK(both.error().message.find("give it in one place") != std::string::npos);

  auto option = expand_ladder(builtin_ab(), {"options.Search", {{Kind::String, "minimax"}}});
  REQUIRE_FALSE(option.has_value());
  CHECK(option.error().message.find("option 'Search' is set in options") != std::string::npos);
}

TEST_CASE("a TOML ladder expands in file order between the other engines") {
  auto config = parse_config_toml(R"([tournament]
st = 0.05
[[engine]]
name = "first"
builtin = true
[[engine]]
name = "ab"
builtin = true
options = { Search = "alphabeta" }
ladder = { key = "depth", values = [1, 2, 3] }
[[engine]]
name = "last"
builtin = true
)",
                                  "l.toml");
  INFO((config ? "" : config.error().to_string()));
  REQUIRE(config.has_value());
  REQUIRE(config->engines.size() == 5);
  CHECK(config->engines[0].name == "first");
  CHECK(config->engines[1].name == "ab-depth1");
  CHECK(config->engines[3].name == "ab-depth3");
  CHECK(config->engines[3].limits.depth == 3);
  CHECK(config->engines[4].name == "last");
  // Positions follow the engines: the third step points into the ladder's table.
  CHECK(config->positions.at.at("engine[4].options").first == 9);
  CHECK(config->positions.at.at("engine[5]").first == 11);
}

TEST_CASE("TOML ladder errors carry line, column and the table's key") {
  const std::string head =
      "[[engine]]\nname = \"a\"\nbuiltin = true\n[[engine]]\nname = \"b\"\n"
      "builtin = true\n";
  auto bad_value = error_of(head + "ladder = { key = \"depth\", values = [1, \"x\"] }\n");
  CHECK(bad_value.line == 7);
  CHECK(bad_value.column == 40);
  CHECK(bad_value.key == "engine[2].ladder.values[2]");
  CHECK(bad_value.message == "expected an integer depth, got a string");

  auto bad_key = error_of(head + "ladder = { key = \"nodez\", values = [1] }\n");
  CHECK(bad_key.line == 7);
  CHECK(bad_key.key == "engine[2].ladder");
  CHECK(bad_key.message.find("did you mean 'nodes'") != std::string::npos);

  auto unknown = error_of(head + "ladder = { key = \"depth\", value = [1] }\n");
  CHECK(unknown.key == "engine[2].ladder.value");
  CHECK(unknown.message.find("did you mean 'values'") != std::string::npos);

  auto not_table = error_of(head + "ladder = [1, 2]\n");
  CHECK(not_table.key == "engine[2].ladder");
  CHECK(not_table.message == "expected a table, got an array");

  auto missing = error_of(head + "ladder = { key = \"depth\" }\n");
  CHECK(missing.key == "engine[2].ladder.values");
}

TEST_CASE("errors found after a ladder name the table in the file, not the expanded index") {
  // Validation runs on the expanded list (engine 4 is the file's third table).
  auto e = error_of(R"([[engine]]
name = "ab"
builtin = true
ladder = { key = "depth", values = [1, 2] }
[[engine]]
name = "ab-depth2"
builtin = true
)");
  CHECK(e.key == "engine[2].name");
  CHECK(e.line == 6);
  CHECK(e.message.find("duplicate engine name 'ab-depth2'") != std::string::npos);

  auto option = error_of(R"([[engine]]
name = "x"
builtin = true
[[engine]]
name = "ab"
builtin = true
ladder = { key = "options.Serch", values = ["minimax"] }
)");
  CHECK(option.key == "engine[2].options.Serch");
  CHECK(option.line == 7);
  CHECK(option.message.find("did you mean 'Search'") != std::string::npos);
}

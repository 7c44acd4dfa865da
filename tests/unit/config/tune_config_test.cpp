// A [tune] section: read through the match schema's rows, expanded into the two engines and the
// rounds it is played as, and every mistake named with its file:line:column and key.
#include "runner/config/tune_config.h"

#include <catch2/catch.hpp>

#include "runner/config/config_toml.h"
#include "runner/config/match_schema.h"

using namespace knightly;
using namespace knightly::runner;

namespace {

// The issue's shape, with a second parameter (a float) and every setting given.
const std::string kTune = R"([tournament]
name = "tune-noise"
depth = 2
seed = 7

[[engine]]
name = "kn"
builtin = true
options = { Eval = "material+pst" }

[tune]
engine = "kn"
iterations = 600
pairs_per_iteration = 2
delay = 3
a_ratio = 0.2
alpha = 0.7
gamma = 0.2

[[tune.param]]
name = "EvalNoise"
start = 300
min = 0
max = 1000
c_end = 60
r_end = 0.05

[[tune.param]]
name = "KnightValue"
start = 107
min = 0
max = 1000
c_end = 20.5
r_end = 0.002
type = "float"
)";

ConfigError error_of(const std::string& text) {
  auto result = parse_config_toml(text, "t.toml");
  REQUIRE_FALSE(result.has_value());
  INFO(result.error().to_string());
  return result.error();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a [tune] section: its settings, its parameters, and the games it is played as") {
  auto c = parse_config_toml(kTune, "t.toml");
  INFO((c ? std::string() : c.error().to_string()));
  REQUIRE(c);
  const TuneConfig& t = c->tune;
  CHECK(t.enabled);
  CHECK(t.engine == "kn");
  CHECK(t.settings.iterations == 600);
  CHECK(t.settings.pairs_per_iteration == 2);
  CHECK(t.settings.delay == 3);
  CHECK(t.settings.a_ratio == 0.2);
  CHECK(t.settings.alpha == 0.7);
  CHECK(t.settings.gamma == 0.2);
  REQUIRE(t.params.size() == 2);
  CHECK(t.params[0] == tune::Param{"EvalNoise", 300, 0, 1000, 60, 0.05, true});
  CHECK(t.params[1] == tune::Param{"KnightValue", 107, 0, 1000, 20.5, 0.002, false});
  // kn+ and kn-, in that order, each with kn's settings; one round per iteration, of pairs.
  REQUIRE(c->engines.size() == 2);
  CHECK(c->engines[0].name == "kn+");
  CHECK(c->engines[1].name == "kn-");
  for (const auto& e : c->engines) {
    CHECK(e.builtin);
    CHECK(e.options == std::vector<std::pair<std::string, std::string>>{{"Eval", "material+pst"}});
  }
  CHECK(c->tournament.rounds == 600);
  CHECK(c->tournament.games_per_encounter == 4);
  CHECK(c->tournament.repeat);
  CHECK(c->tournament.format == TournamentFormat::RoundRobin);
  // The match's identity names the tune.
  const std::string identity = match_identity(*c);
  CHECK(identity.find("[tune]\nengine = \"kn\"\niterations = 600") != std::string::npos);
  CHECK(identity.find("name = \"KnightValue\"") != std::string::npos);
}

TEST_CASE("a [tune] section takes fishtest's defaults") {
  std::string text = kTune;
  for (const char* line : {"pairs_per_iteration = 2\n", "delay = 3\n", "a_ratio = 0.2\n",
                           "alpha = 0.7\n", "gamma = 0.2\n", "type = \"float\"\n"})
    text = replaced(text, line, "");
  auto c = parse_config_toml(text, "t.toml");
  REQUIRE(c);
  CHECK(c->tune.settings.pairs_per_iteration == 1);
  CHECK(c->tune.settings.delay == 8);
  CHECK(c->tune.settings.a_ratio == 0.1);
  CHECK(c->tune.settings.alpha == 0.602);
  CHECK(c->tune.settings.gamma == 0.101);
  CHECK(c->tune.params[1].integer);
  CHECK(c->tournament.games_per_encounter == 2);
}

TEST_CASE("mistakes in a [tune] section name their key and place") {
  struct Case {
    std::string from, to, key, message;
    int line;
  };
  const Case cases[] = {
      {"engine = \"kn\"\niterations", "engine = \"kb\"\niterations", "tune.engine",
       "no [[engine]] is named 'kb'; did you mean 'kn'?", 12},
      {"iterations = 600\n", "", "tune.iterations", "missing required key 'iterations'", 11},
      {"iterations = 600", "iterations = 0", "tune.iterations", "out of range [1, ", 13},
      {"delay = 3", "delay = -1", "tune.delay", "out of range [0, ", 15},
      {"c_end = 60\n", "", "tune.param[1].c_end", "missing required key 'c_end'", 20},
      {"c_end = 60", "c_end = 0", "tune.param[1]", "'EvalNoise': c_end must be more than 0", 20},
      {"start = 300", "start = 3000", "tune.param[1]", "start 3000 is outside [0, 1000]", 20},
      {"max = 1000\nc_end = 60", "max = -5\nc_end = 60", "tune.param[1]",
       "min (0) must be less than max (-5)", 20},
      {"type = \"float\"", "type = \"double\"", "tune.param[2].type",
       "'double' is not int or float", 35},
      {"r_end = 0.05", "r_end = 0.05\nrate = 1", "tune.param[1].rate", "unknown key", 27},
      {"name = \"KnightValue\"", "name = \"evalnoise\"", "tune.param[2].name",
       "'evalnoise' is tuned twice (also tune.param[1])", 29},
      {"name = \"EvalNoise\"", "name = \"Noise\"", "tune.param[1].name",
       "unknown builtin option 'Noise'", 21},
      {"max = 1000\nc_end = 60", "max = 20000\nc_end = 60", "tune.param[1].name",
       "EvalNoise must be between 0 and 10000, got 20000", 21},
      {"options = { Eval = \"material+pst\" }", "options = { EvalNoise = 5 }", "tune.param[1].name",
       "'EvalNoise' is tuned: take it out of engine 'kn''s options", 21},
      {"depth = 2", "depth = 2\nrounds = 4", "tournament.rounds", "leave it out", 4},
      {"depth = 2", "depth = 2\nnoswap = true", "tournament.noswap", "swap colours", 4},
      {"[tune]", "[sprt]\nelo1 = 5\n[tune]", "sprt", "a tune has no SPRT", 11},
      {"[tune]", "[[engine]]\nname = \"sf\"\nbuiltin = true\n[tune]", "engine",
       "give only its [[engine]] table (found 2 engines)", 6},
  };
  for (const Case& k : cases) {
    INFO(k.from << " -> " << k.to);
    const ConfigError e = error_of(replaced(kTune, k.from, k.to));
    INFO(e.to_string());
    CHECK(e.file == "t.toml");
    CHECK(e.key == k.key);
    CHECK(e.message.find(k.message) != std::string::npos);
    CHECK(e.line == k.line);
  }
  // No parameter at all, and parameters that are not tables.
  CHECK(error_of(replaced(kTune, "[[tune.param]]\nname = \"EvalNoise\"",
                          "[[tune.x]]\nname = \"EvalNoise\""))
            .key == "tune.x");
}

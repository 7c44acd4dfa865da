// An engine built from its source, as the TOML [[engine]] table, a `play -engine` and a sprt
// SPEC write it (runner/config/engine_source.h).
#include "runner/config/engine_source.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "runner/config/config_toml.h"
#include "runner/config/engine_words.h"
#include "runner/config/match_schema.h"
#include "runner/config/play_flags.h"

using namespace knightly::runner;

TEST_CASE("source: a SPEC with repo= and ref=, the defaults and every key", "[config][source]") {
  auto e = parse_engine_spec("repo=/src/engine.git ref=main");
  REQUIRE(e);
  REQUIRE(e->source);
  CHECK(e->source->repo == "/src/engine.git");
  CHECK(e->source->ref == "main");
  CHECK(e->source->build == "make -j EXE={exe}");
  CHECK(e->source->subdir.empty());
  CHECK_FALSE(e->source->bench);
  CHECK(e->command.empty());
  CHECK(e->name == "engine@main");

  auto all = parse_engine_spec(
      "repo=https://github.com/x/sf.git ref=abc123 build='make -j profile-build EXE={exe}' "
      "subdir=src bench=2030412 name=dev option.Hash=16");
  REQUIRE(all);
  CHECK(all->source->repo == "https://github.com/x/sf.git");
  CHECK(all->source->build == "make -j profile-build EXE={exe}");
  CHECK(all->source->subdir == "src");
  CHECK(all->source->bench == 2030412u);
  CHECK(all->name == "dev");
  CHECK(all->options.size() == 1);
}

TEST_CASE("source: a relative repository path is made absolute, a URL is kept",
          "[config][source]") {
  auto e = parse_engine_spec("repo=engines/mine ref=dev");
  REQUIRE(e);
  CHECK(e->source->repo.front() == '/');
  CHECK(e->source->repo.ends_with("/engines/mine"));
  CHECK(is_repository_url("git@github.com:x/y.git"));
  CHECK(is_repository_url("https://github.com/x/y"));
  CHECK(is_repository_url("file:///srv/y.git"));
  CHECK_FALSE(is_repository_url("/srv/y.git"));
  CHECK_FALSE(is_repository_url("./a:b"));
}

TEST_CASE("source: mistakes are named", "[config][source]") {
  auto fails = [](const std::string& spec) {
    auto e = parse_engine_spec(spec);
    REQUIRE_FALSE(e);
    return e.error().message;
  };
  CHECK(fails("repo=/x").find("no ref=") != std::string::npos);
  CHECK(fails("ref=main name=n").find("no repo=") != std::string::npos);
  CHECK(fails("repo=/x ref=main cmd=/bin/true").find("give no command") != std::string::npos);
  CHECK(fails("repo=/x ref=main build=make").find("{exe}") != std::string::npos);
  CHECK(fails("repo=/x ref=main bench=lots").find("bench: 'lots'") != std::string::npos);
  CHECK(fails("repo=/x ref=main subdir=../up").find("inside the repository") != std::string::npos);
  CHECK(fails("repo=/x ref=--upload-pack=x").find("starts with '-'") != std::string::npos);
}

TEST_CASE("source: the TOML keys of an [[engine]] table", "[config][source]") {
  auto c = parse_config_toml(
      "[tournament]\nreference_nps = 1250000\ntc = \"10+0.1\"\n"
      "[[engine]]\nname = \"dev\"\nrepo = \"../engine\"\nref = \"feature\"\n"
      "build = \"make EXE={exe} ARCH=x86-64\"\nsubdir = \"src\"\nbench = 123\n"
      "[[engine]]\nname = \"base\"\nrepo = \"../engine\"\nref = \"main\"\n",
      "/tests/t.toml");
  INFO((c ? "" : c.error().to_string()));
  REQUIRE(c);
  CHECK(c->tournament.reference_nps == 1250000.0);
  REQUIRE(c->engines.size() == 2);
  REQUIRE(c->engines[0].source);
  CHECK(c->engines[0].source->repo == "/engine");  // against the file's directory
  CHECK(c->engines[0].source->ref == "feature");
  CHECK(c->engines[0].source->build == "make EXE={exe} ARCH=x86-64");
  CHECK(c->engines[0].source->subdir == "src");
  CHECK(c->engines[0].source->bench == 123u);
  CHECK(c->engines[1].source->build == "make -j EXE={exe}");

  auto both = parse_config_toml(
      "[[engine]]\nname = \"a\"\nrepo = \"/e\"\nref = \"m\"\ncommand = \"/bin/true\"\n"
      "[[engine]]\nname = \"b\"\nbuiltin = true\n",
      "/t/t.toml");
  REQUIRE_FALSE(both);
  CHECK(both.error().message.find("give no command") != std::string::npos);
  auto bad = parse_config_toml("[[engine]]\nname = \"a\"\nrepo = \"/e\"\nref = \"\"\n", "/t.toml");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().key == "engine[1].ref");
  CHECK(bad.error().line == 4);
  auto slow = parse_config_toml("[tournament]\nreference_nps = 0\n", "/t.toml");
  REQUIRE_FALSE(slow);
  CHECK(slow.error().key == "tournament.reference_nps");
}

TEST_CASE("source: knightly play -engine repo=... ref=...", "[config][source]") {
  auto p = parse_play_flags({"-engine", "repo=/src/e", "ref=dev", "name=dev", "-engine",
                             "builtin=ab", "-each", "tc=1+0.01", "-rounds", "1"});
  INFO((p ? "" : p.error().to_string()));
  REQUIRE(p);
  REQUIRE(p->config.engines[0].source);
  CHECK(p->config.engines[0].source->ref == "dev");
  auto bad =
      parse_play_flags({"-engine", "repo=/src/e", "-engine", "builtin=ab", "-each", "tc=1+0.01"});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("no ref=") != std::string::npos);
}

TEST_CASE("source: a match's identity is its engines' sources: another ref is another match",
          "[config][source]") {
  auto config = [](const std::string& dev_words) {
    std::vector<std::string> words = {"-engine", "repo=/src/e", "name=dev"};
    std::istringstream in(dev_words);
    for (std::string w; in >> w;) words.push_back(w);
    for (const char* w :
         {"-engine", "repo=/src/e", "ref=main", "name=main", "-each", "tc=1+0.01", "-rounds", "1"})
      words.push_back(w);
    auto p = parse_play_flags(words);
    INFO((p ? "" : p.error().to_string()));
    REQUIRE(p);
    return p->config;
  };
  const Config dev = config("ref=dev");
  CHECK(dev.source_text.find("repo = \"/src/e\"\nref = \"dev\"\nbuild = \"make -j EXE={exe}\"") !=
        std::string::npos);
  CHECK(dev.source_text.find("command = ") == std::string::npos);  // no program until built
  CHECK(config("ref=dev").tournament.name == dev.tournament.name);
  for (const char* other :
       {"ref=dev2", "ref=dev build=make_EXE={exe}", "ref=dev subdir=src", "ref=dev bench=12345"}) {
    INFO(other);
    CHECK(config(other).tournament.name != dev.tournament.name);
  }

  // The time control's scaling is part of the test; a speed of 0 is refused by its row.
  const std::string engines =
      "[[engine]]\nname = \"a\"\nbuiltin = true\n[[engine]]\nname = \"b\"\nbuiltin = true\n";
  auto scaled = parse_config_toml("[tournament]\nreference_nps = 1000000\n" + engines);
  auto unscaled = parse_config_toml(engines);
  REQUIRE(scaled);
  REQUIRE(unscaled);
  CHECK(match_identity(*scaled).find("reference_nps = 1000000.0\n") != std::string::npos);
  CHECK(match_identity(*unscaled).find("reference_nps") == std::string::npos);
  const MatchKey* flag = key_by_knightly("--reference-nps", CommandSprt);
  REQUIRE(flag);
  CHECK(parse_value(*flag, "1250000"));
  REQUIRE_FALSE(parse_value(*flag, "0"));
  CHECK(parse_value(*flag, "0").error() == "value 0.0 is not a number >= 1");
}

// An engine built from its source, as the TOML [[engine]] table, a `play -engine` and a sprt
// SPEC write it (runner/config/engine_source.h).
#include "runner/config/engine_source.h"

#include <catch2/catch.hpp>

#include "runner/config/config_toml.h"
#include "runner/config/engine_words.h"
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

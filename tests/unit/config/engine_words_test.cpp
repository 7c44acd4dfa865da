// Engine words and SPECs: shell-like splitting, option names with spaces, both tools' keys.
#include "runner/config/engine_words.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

using namespace knightly::runner;

namespace {

using Options = std::vector<std::pair<std::string, std::string>>;
using Words = std::vector<std::string>;

EngineConfig spec(const std::string& text) {
  auto e = parse_engine_spec(text);
  INFO(text);
  INFO((e ? std::string() : e.error().to_string()));
  REQUIRE(e.has_value());
  return *e;
}

}  // namespace

TEST_CASE("split_words quotes and escapes like a shell") {
  CHECK(*split_words("a  b\tc") == Words{"a", "b", "c"});
  CHECK(*split_words("'option.Skill Level=3' x") == Words{"option.Skill Level=3", "x"});
  CHECK(*split_words("option.\"Skill Level\"=3") == Words{"option.Skill Level=3"});
  CHECK(*split_words("a\\ b \"q\\\"x\" ''") == Words{"a b", "q\"x", ""});
  CHECK(split_words("").value().empty());
  CHECK_FALSE(split_words("'open").has_value());
  CHECK_FALSE(split_words("\"open").has_value());
}

TEST_CASE("join_option_names rejoins an option name a shell split") {
  CHECK(join_option_names({"cmd=sf", "option.Skill", "Level=3", "tc=1"}) ==
        Words{"cmd=sf", "option.Skill Level=3", "tc=1"});
  CHECK(join_option_names({"option.A", "B", "C=1"}) == Words{"option.A B C=1"});
  CHECK(join_option_names({"cmd=sf", "trust"}) == Words{"cmd=sf", "trust"});
}

TEST_CASE("engine SPECs for knightly sprt") {
  auto bare = spec("./build/new/knightly-engine");
  CHECK(bare.command == "./build/new/knightly-engine");
  CHECK(bare.name == "knightly-engine");
  CHECK_FALSE(bare.builtin);

  auto cmd = spec("cmd=/usr/games/stockfish option.Hash=16  option.Threads=1 name=sf depth=8");
  CHECK(cmd.command == "/usr/games/stockfish");
  CHECK(cmd.name == "sf");
  CHECK(cmd.options == Options{{"Hash", "16"}, {"Threads", "1"}});
  CHECK(cmd.limits.depth == 8);

  auto builtin = spec("builtin=ab option.Search=alphabeta option.Eval=material");
  CHECK(builtin.builtin);
  CHECK(builtin.name == "ab");
  CHECK(builtin.options.size() == 2);

  auto bad = parse_engine_spec("builtin=ab option.Serch=alphabeta");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().key == "SPEC");
  CHECK(bad.error().message.find("did you mean 'Search'?") != std::string::npos);
  CHECK_FALSE(parse_engine_spec("").has_value());
  CHECK_FALSE(parse_engine_spec("name=x").has_value());
  CHECK_FALSE(parse_engine_spec("cmd=a builtin=b").has_value());
  CHECK(parse_engine_spec("cmd='unterminated").error().message.find("unterminated") !=
        std::string::npos);
}

TEST_CASE("a SPEC names options with spaces, quoted or not") {
  // The command: an option with a space, no quotes inside the SPEC.
  auto plain = spec("cmd=/usr/games/stockfish option.Skill Level=3");
  CHECK(plain.command == "/usr/games/stockfish");
  CHECK(plain.options == Options{{"Skill Level", "3"}});

  auto quoted = spec("cmd=/usr/games/stockfish 'option.Skill Level=3' option.Move Overhead=100");
  CHECK(quoted.options == Options{{"Skill Level", "3"}, {"Move Overhead", "100"}});

  auto inner = spec("cmd=/usr/games/stockfish option.\"Slow Mover\"=80 name=sf");
  CHECK(inner.options == Options{{"Slow Mover", "80"}});
  CHECK(inner.name == "sf");

  // A value with a space: the word without '=' continues it.
  auto value = spec("cmd=/bin/e option.BookFile=my book.bin option.Hash=8");
  CHECK(value.options == Options{{"BookFile", "my book.bin"}, {"Hash", "8"}});

  // A path with a space, bare or as cmd=, and a program followed by its options.
  CHECK(spec("'/opt/my engines/sf'").command == "/opt/my engines/sf");
  CHECK(spec("/opt/my engines/sf").command == "/opt/my engines/sf");
  auto first = spec("/usr/games/stockfish option.Hash=16");
  CHECK(first.command == "/usr/games/stockfish");
  CHECK(first.options == Options{{"Hash", "16"}});
}

TEST_CASE("cmd= with a blank: a command line (cutechess-cli), unless it is a file (fastchess)") {
  // rivalchess's cutechess-cli script: cmd="java -jar rivalchess.jar".
  auto java = spec("cmd='java -jar /home/c/Chess/rivalchess.jar' name=rival");
  CHECK(java.command == "java");
  CHECK(java.args == Words{"-jar", "/home/c/Chess/rivalchess.jar"});
  EngineConfig e;
  CHECK_FALSE(apply_engine_word("cmd=java -jar 'my engine.jar'", e).has_value());
  CHECK(e.command == "java");
  CHECK(e.args == Words{"-jar", "my engine.jar"});

  const auto dir = std::filesystem::temp_directory_path() / "knightly engine words test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "my engine").string();
  { std::ofstream(path) << "#!/bin/sh\n"; }
  EngineConfig f;
  CHECK_FALSE(apply_engine_word("cmd=" + path, f).has_value());
  CHECK(f.command == path);
  CHECK(f.args.empty());
  std::filesystem::remove_all(dir);
}

TEST_CASE("engine words: both tools' keys") {
  EngineConfig e;
  for (const std::string w : {"cmd=/bin/x", "name=X", "plies=9", "nodes=5000", "timemargin=250",
                              "restart=on", "dir=/tmp", "env.A=1", "args=-a 'b c'", "arg=d"})
    CHECK_FALSE(apply_engine_word(w, e).has_value());
  CHECK(e.limits.depth == 9);
  CHECK(e.limits.nodes == 5000u);
  CHECK(e.limits.time_margin_ms == 250);
  CHECK(e.restart);
  CHECK(e.workdir == "/tmp");
  CHECK(e.env.at("A") == "1");
  CHECK(e.args == Words{"-a", "b c", "d"});
  CHECK(apply_engine_word("restart=sometimes", e)->find("on, off or auto") != std::string::npos);
  CHECK(apply_engine_word("depth=0", e)->find("depth") != std::string::npos);
  CHECK(apply_engine_word("option.Hash", e)->find("needs a value") != std::string::npos);
  CHECK(apply_engine_word("tme=1", e)->find("did you mean") != std::string::npos);
  // cutechess's trust takes an engine's claims unchecked: refused by name, never ignored.
  CHECK(apply_engine_word("trust", e)->find("trust") != std::string::npos);
  CHECK_FALSE(e.ponder);
  CHECK_FALSE(apply_engine_word("ponder", e).has_value());
  CHECK(e.ponder);
}

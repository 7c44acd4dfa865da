// Polyglot books as openings: a line of book moves per pair, weighted random or the heaviest
// move, cut at `plies`, the same for both games of a pair and for a resumed run. The book is
// built here from entries (a stand-in for a file; tests/integration/cli builds real ones with
// Debian's polyglot).
#include <catch2/catch.hpp>
#include <map>

#include "engine/chess/notation.h"
#include "engine/chess/polyglot_book.h"
#include "engine/chess/position.h"
#include "runner/config/config_toml.h"
#include "runner/tournament/schedule.h"

using namespace knightly;
using namespace knightly::runner;

namespace {

chess::PolyglotEntry entry(const chess::Position& pos, const std::string& uci,
                           std::uint16_t weight) {
  auto m = chess::parse_uci(pos, uci);
  REQUIRE(m.has_value());
  return {pos.key(), chess::PolyglotBook::encode_move(*m), weight, 0};
}

// 1. e4 (weight 3) or 1. d4 (weight 1), 1. a4 never (weight 0); after 1. e4: 1... e5 or
// 1... c5; after 1. d4: 1... d5. Nothing deeper.
std::string book_bytes() {
  chess::Position start;
  std::vector<chess::PolyglotEntry> entries = {entry(start, "e2e4", 3), entry(start, "d2d4", 1),
                                               entry(start, "a2a4", 0)};
  chess::Position e4 = start;
  e4.do_move(*chess::parse_uci(e4, "e2e4"));
  entries.push_back(entry(e4, "e7e5", 5));
  entries.push_back(entry(e4, "c7c5", 5));
  chess::Position d4 = start;
  d4.do_move(*chess::parse_uci(d4, "d2d4"));
  entries.push_back(entry(d4, "d7d5", 1));
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.key < b.key; });
  std::string bytes;
  for (const auto& e : entries) {
    auto put = [&](std::uint64_t v, int n) {
      for (int i = n - 1; i >= 0; --i) bytes += static_cast<char>((v >> (8 * i)) & 0xff);
    };
    put(e.key, 8);
    put(e.move, 2);
    put(e.weight, 2);
    put(e.learn, 4);
  }
  return bytes;
}

Config config(const std::string& openings) {
  auto c =
      parse_config_toml("[tournament]\nrounds = 200\n[openings]\nfile = \"b.bin\"\n" + openings +
                        "\n[[engine]]\nname = \"a\"\nbuiltin = true\n[[engine]]\nname = "
                        "\"b\"\nbuiltin = true\n");
  INFO((c ? std::string() : c.error().to_string()));
  REQUIRE(c.has_value());
  return *c;
}

}  // namespace

TEST_CASE("a Polyglot book: weighted lines per pair, shared, replayable") {
  const Config c = config("");
  CHECK(choice_name(c.openings.format) == "bin");
  auto book = OpeningBook::from_polyglot(book_bytes(), "b.bin");
  REQUIRE(book.has_value());
  CHECK(book->size() == 0u);  // nothing indexed: lines are drawn
  REQUIRE(book->polyglot() != nullptr);
  Schedule s(c, 11, book->size());
  std::map<std::string, int> lines;
  for (std::size_t i = 0; i < s.total(); i += 2) {
    auto a = opening_for(s.at(i), &*book, c.openings);
    REQUIRE(a.has_value());
    CHECK(*a == *opening_for(s.at(i + 1), &*book, c.openings));
    CHECK(a->fen == chess::Position::StartFen);
    CHECK(a->source == "b.bin");
    REQUIRE(a->moves.size() == 2u);  // the book ends after two plies
    lines[a->moves[0] + " " + a->moves[1]]++;
    Schedule again(c, 11, 0);
    CHECK(*opening_for(again.at(i), &*book, c.openings) == *a);
  }
  // Every line of positive weight is drawn; a4 (weight 0) never. e4 has 3/4 of the weight.
  REQUIRE(lines.size() == 3u);
  CHECK(lines.count("a2a4 ") == 0u);
  CHECK(lines["e2e4 e7e5"] + lines["e2e4 c7c5"] > lines["d2d4 d7d5"] * 2);
  CHECK(lines["d2d4 d7d5"] > 20);
}

TEST_CASE("a Polyglot book: sequential = the heaviest move, plies cut the line, random plies") {
  auto book = OpeningBook::from_polyglot(book_bytes(), "b.bin");
  REQUIRE(book.has_value());
  const Config best = config("order = \"sequential\"");
  Schedule s(best, 1, 0);
  for (std::size_t i = 0; i < 10; ++i)
    CHECK(opening_for(s.at(i), &*book, best.openings)->moves ==
          std::vector<std::string>{"e2e4", "e7e5"});
  const Config one = config("plies = 1\nrandom_plies = 3");
  Schedule t(one, 1, 0);
  auto o = opening_for(t.at(0), &*book, one.openings);
  REQUIRE(o.has_value());
  CHECK(o->moves.size() == 4u);
  CHECK((o->moves[0] == "e2e4" || o->moves[0] == "d2d4"));
}

TEST_CASE("a Polyglot book from a 960 position and bad book files") {
  auto book = OpeningBook::from_polyglot(book_bytes(), "b.bin");
  REQUIRE(book.has_value());
  Config c = config("");
  c.tournament.variant = Variant::Fischerandom;
  Schedule s(c, 1, 0);
  auto o = opening_for(s.at(0), &*book, c.openings, true);
  REQUIRE(o.has_value());
  CHECK(o->source.starts_with("b.bin from chess960 #"));

  auto torn = OpeningBook::from_polyglot(book_bytes().substr(0, 20), "torn.bin");
  REQUIRE_FALSE(torn.has_value());
  CHECK(torn.error().to_string().starts_with("torn.bin: not a Polyglot book"));
  auto empty = OpeningBook::from_polyglot("", "empty.bin");
  REQUIRE_FALSE(empty.has_value());
  CHECK(empty.error().to_string() == "empty.bin: the Polyglot book is empty");
}

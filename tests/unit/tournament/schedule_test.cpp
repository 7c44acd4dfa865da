// The schedule: pairings, colours, pairs sharing openings, determinism and stable identities.
#include "runner/tournament/schedule.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "runner/config/config_toml.h"

using namespace knightly::runner;

namespace {

Config make_config(int engines, const std::string& tournament_keys,
                   const std::string& openings = "") {
  std::string text = "[tournament]\n" + tournament_keys + "\n";
  if (!openings.empty()) text += "[openings]\n" + openings + "\n";
  for (int i = 0; i < engines; ++i)
    text += "[[engine]]\nname = \"e" + std::to_string(i) + "\"\nbuiltin = true\n";
  auto c = parse_config_toml(text);
  INFO((c ? std::string() : c.error().to_string()));
  REQUIRE(c.has_value());
  return *c;
}

}  // namespace

TEST_CASE("round robin: every pair of engines every round, colours balanced") {
  const Config c = make_config(4, "rounds = 3\ngames = 2");
  Schedule s(c, 1, 0);
  REQUIRE(s.total() == 6u * 2u * 3u);
  std::map<std::pair<int, int>, int> games_between;
  std::map<int, int> whites, blacks;
  for (const auto& g : s.games()) {
    CHECK(g.white != g.black);
    games_between[{std::min(g.white, g.black), std::max(g.white, g.black)}]++;
    whites[g.white]++;
    blacks[g.black]++;
  }
  CHECK(games_between.size() == 6u);
  for (const auto& [pair, n] : games_between) CHECK(n == 6);
  for (int e = 0; e < 4; ++e) {
    CHECK(whites[e] == 9);
    CHECK(blacks[e] == 9);
  }
  // Round by round: every round holds each encounter's games.
  for (std::size_t i = 0; i < s.total(); ++i) CHECK(s.at(i).id.round == static_cast<int>(i / 12));
}

TEST_CASE("gauntlet: the seeds play everyone else, never each other") {
  const Config c = make_config(5, "format = \"gauntlet\"\nseeds = 2\ngames = 2");
  Schedule s(c, 1, 0);
  REQUIRE(s.total() == 2u * 3u * 2u);
  std::set<std::pair<int, int>> pairs;
  for (const auto& g : s.games()) {
    const int seed = std::min(g.white, g.black);
    const int other = std::max(g.white, g.black);
    CHECK(seed < 2);
    CHECK(other >= 2);
    pairs.insert({seed, other});
  }
  const std::set<std::pair<int, int>> expected = {{0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}};
  CHECK(pairs == expected);
}

TEST_CASE("the two games of a pair share an opening and swap colours") {
  const Config c = make_config(3, "rounds = 2\ngames = 4", "random_plies = 3");
  Schedule s(c, 77, 1000);
  REQUIRE(s.total() == 3u * 4u * 2u);
  for (std::size_t i = 0; i < s.total(); ++i) {
    const auto& g = s.at(i);
    if (g.id.game_in_pair == 0) continue;
    const auto& first = s.at(i - 1);
    CHECK(first.id.game_in_pair == 0);
    CHECK(first.id.round == g.id.round);
    CHECK(first.id.pair == g.id.pair);
    CHECK(first.white == g.black);
    CHECK(first.black == g.white);
    CHECK(first.book_index == g.book_index);
    CHECK(first.opening_seed == g.opening_seed);
  }
  // Different pairs use different openings (the book is bigger than the schedule).
  std::set<std::size_t> units, books;
  for (const auto& g : s.games()) {
    units.insert(g.opening_unit);
    books.insert(g.book_index);
  }
  CHECK(units.size() == s.total() / 2);
  CHECK(books.size() == s.total() / 2);
}

TEST_CASE("the two games of a pair start from the same opening with random plies") {
  const Config c = make_config(2, "rounds = 3", "random_plies = 6");
  Schedule s(c, 5, 0);
  for (std::size_t i = 0; i + 1 < s.total(); i += 2) {
    auto a = opening_for(s.at(i), nullptr, c.openings);
    auto b = opening_for(s.at(i + 1), nullptr, c.openings);
    REQUIRE(a.has_value());
    REQUIRE(b.has_value());
    CHECK(*a == *b);
    CHECK(a->moves.size() == 6u);
  }
  auto first = opening_for(s.at(0), nullptr, c.openings);
  auto third = opening_for(s.at(2), nullptr, c.openings);
  CHECK(first->moves != third->moves);  // another pair, other plies
}

TEST_CASE("without repeat every game has its own opening") {
  const Config c = make_config(2, "games = 4\nrepeat = false");
  Schedule s(c, 1, 100);
  std::set<std::size_t> books;
  for (const auto& g : s.games()) books.insert(g.book_index);
  CHECK(books.size() == 4u);
}

TEST_CASE("the same config and seed give the same schedule - another seed other openings") {
  const Config c = make_config(4, "rounds = 2\ngames = 2", "order = \"random\"");
  Schedule a(c, 12345, 150000);
  Schedule b(c, 12345, 150000);
  CHECK(a.games() == b.games());
  Schedule other(c, 54321, 150000);
  REQUIRE(other.total() == a.total());
  int same_openings = 0;
  for (std::size_t i = 0; i < a.total(); ++i) {
    CHECK(a.at(i).id == other.at(i).id);  // identities and pairings do not depend on the seed
    CHECK(a.at(i).white == other.at(i).white);
    if (a.at(i).book_index == other.at(i).book_index) ++same_openings;
  }
  CHECK(same_openings < 4);
}

TEST_CASE("sequential order starts at `start` and follows the book") {
  const Config c = make_config(2, "rounds = 3\ngames = 2", "order = \"sequential\"\nstart = 5");
  Schedule s(c, 1, 6);
  const std::vector<std::size_t> expected = {4, 4, 5, 5, 0, 0};  // wraps around the 6-line book
  std::vector<std::size_t> got;
  for (const auto& g : s.games()) got.push_back(g.book_index);
  CHECK(got == expected);
}

TEST_CASE("game identities are stable: more rounds extend the schedule without changing it") {
  const Config two =
      make_config(3, "rounds = 2\ngames = 2", "order = \"random\"\nrandom_plies = 2");
  const Config five =
      make_config(3, "rounds = 5\ngames = 2", "order = \"random\"\nrandom_plies = 2");
  Schedule a(two, 9, 500);
  Schedule b(five, 9, 500);
  REQUIRE(a.total() == 12u);
  REQUIRE(b.total() == 30u);
  for (std::size_t i = 0; i < a.total(); ++i) CHECK(a.at(i) == b.at(i));
  std::set<std::tuple<int, int, int>> ids;
  for (std::size_t i = 0; i < b.total(); ++i) {
    const auto& id = b.at(i).id;
    CHECK(id.index == static_cast<int>(i));
    CHECK(ids.insert({id.round, id.pair, id.game_in_pair}).second);
  }
  // Pair numbers restart every round: 3 encounters x 1 pair.
  CHECK(b.at(29).id.round == 4);
  CHECK(b.at(29).id.pair == 2);
  CHECK(b.at(29).id.game_in_pair == 1);
}

TEST_CASE("iteration with next() and seek() visits the games in order") {
  const Config c = make_config(3, "games = 2");
  Schedule s(c, 1, 0);
  std::vector<int> seen;
  while (auto g = s.next()) seen.push_back(g->id.index);
  CHECK(seen == std::vector<int>{0, 1, 2, 3, 4, 5});
  s.seek(4);
  auto g = s.next();
  REQUIRE(g.has_value());
  CHECK(g->id.index == 4);
  CHECK(s.position() == 5u);
}

TEST_CASE("an odd number of games per encounter alternates colours by round") {
  const Config c = make_config(2, "games = 1\nrounds = 4");
  Schedule s(c, 1, 0);
  REQUIRE(s.total() == 4u);
  CHECK(s.at(0).white == 0);
  CHECK(s.at(1).white == 1);
  CHECK(s.at(2).white == 0);
  CHECK(s.at(3).white == 1);
}

TEST_CASE("schedule: -noswap keeps the first engine White, -reverse turns every game round") {
  const Config normal = make_config(2, "rounds = 2\ngames = 2\nrepeat = true");
  const Config noswap = make_config(2, "rounds = 2\ngames = 2\nrepeat = true\nnoswap = true");
  const Config reverse = make_config(2, "rounds = 2\ngames = 2\nrepeat = true\nreverse = true");
  const Config both =
      make_config(2, "rounds = 2\ngames = 2\nrepeat = true\nnoswap = true\nreverse = true");
  Schedule n(normal, 1, 0), ns(noswap, 1, 0), r(reverse, 1, 0), b(both, 1, 0);
  REQUIRE(n.total() == 4u);
  for (std::size_t i = 0; i < n.total(); ++i) {
    INFO(i);
    CHECK(ns.at(i).white == 0);
    CHECK(b.at(i).white == 1);
    CHECK(r.at(i).white == n.at(i).black);
    CHECK(r.at(i).black == n.at(i).white);
    // Openings and identities do not depend on colours.
    CHECK(r.at(i).id == n.at(i).id);
    CHECK(ns.at(i).opening_unit == n.at(i).opening_unit);
  }
  CHECK(n.at(0).white == 0);
  CHECK(n.at(1).white == 1);
}

TEST_CASE("a fixed seed gives the openings stored tournaments were scheduled with") {
  // Pinned from the schedule's own SplitMix64 before it became chess::SplitMix64: a resumed
  // tournament must find every game's opening where it was, so these never change.
  const Config c = make_config(3, "rounds = 3\ngames = 2", "order = \"random\"");
  Schedule s(c, 12345, 1000);
  const std::vector<std::pair<std::size_t, std::uint64_t>> expected = {
      {782, 0x6aaf03546f581561ULL}, {478, 0x36ff5d207b2602dbULL}, {690, 0x366c56297109e453ULL},
      {510, 0x17863828a716d0ecULL}, {4, 0x37cf8ece559f4853ULL},   {862, 0xe27391b5cecaf7f4ULL},
      {226, 0x02fb50aaef28d513ULL}, {378, 0x501a97693b71f5adULL}, {684, 0xeee6ab9ee7309e29ULL}};
  REQUIRE(s.total() == 2 * expected.size());
  for (std::size_t i = 0; i < s.total(); ++i) {
    INFO("game " << i);
    CHECK(s.at(i).book_index == expected[i / 2].first);
    CHECK(s.at(i).opening_seed == expected[i / 2].second);
  }
}

TEST_CASE("a schedule's size is known without building it, and over the limits it is refused") {
  const Config two = make_config(2, "rounds = 1000000000\ngames = 2");
  const ScheduleSize size = schedule_size(two);
  CHECK(size.encounters == 1u);
  CHECK(size.pairs == 1000000000u);
  CHECK(size.games == 2000000000u);
  auto e = check_schedule_limits(two);
  REQUIRE(e);
  CHECK(e->key == "tournament.rounds");
  CHECK(e->message.find("1000000000 pairs of games: a tournament has at most 1000000") !=
        std::string::npos);
  // Building it anyway is refused before anything is allocated.
  CHECK_THROWS_AS(Schedule(two, 1, 0), std::length_error);

  Config many = make_config(2, "rounds = 1\ngames = 2");
  many.engines.resize(10000, many.engines[0]);
  e = check_schedule_limits(many);
  REQUIRE(e);
  CHECK(e->key == "engine");
  CHECK(e->message.starts_with("10000 engines: a tournament has at most 1000"));
  // A gauntlet counts its encounters as a gauntlet does.
  Config gauntlet = make_config(1000, "rounds = 1\ngames = 2\nformat = \"gauntlet\"\nseeds = 1");
  CHECK(schedule_size(gauntlet).encounters == 999u);
  CHECK_FALSE(check_schedule_limits(gauntlet));
  // An overflow of 64 bits is still an answer, not a wrap to a small number.
  Config huge = make_config(1000, "rounds = 2147483647\ngames = 2147483647");
  CHECK(schedule_size(huge).pairs > 1000000u);
  CHECK(check_schedule_limits(huge));
  // Threads and opening plies are bounded with it, however the config was made.
  Config threads = make_config(2, "rounds = 1");
  threads.tournament.concurrency = 5000;
  CHECK(check_schedule_limits(threads)->key == "tournament.concurrency");
  Config plies = make_config(2, "rounds = 1");
  plies.openings.random_plies = 100000;
  CHECK(check_schedule_limits(plies)->key == "openings.random_plies");
  CHECK_FALSE(check_schedule_limits(make_config(3, "rounds = 100\ngames = 2")));
}

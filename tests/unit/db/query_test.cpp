// The `knightly query` aggregates over a small hand-made tournament whose answers are
// worked out by hand in the comments, plus filters with hostile values and import de-dup,
// on both backends.
#include <array>
#include <catch2/catch.hpp>

#include "db/store/store.h"
#include "db_test_util.h"
#include "test_database.h"

using namespace knightly;
using knightly::Result;
using knightly::Termination;
using knightly::db::GameFilter;
using knightly::db::Store;

namespace {

struct Db {
  Store store;
  std::int64_t rr = 0;
  std::int64_t other = 0;
  std::int64_t a = 0, b = 0, c = 0, a2 = 0;
};

GameRecord game(int index, const std::string& white, const std::string& black, Result result,
                Termination termination, const std::string& reason) {
  GameRecord g = test::synthetic_game(index, 8, white, black, result);
  g.termination = termination;
  g.reason = reason;
  g.start_time = std::string("2026-11-0").append(std::to_string(index + 1)).append("T12:00:00Z");
  return g;
}

// Tournament "rr" (pairs are games 0+1, 2+3, 4+5):
//   0: A-B 1-0 checkmate        1: B-A draw repetition
//   2: A-C 0-1 time forfeit     3: C-A draw repetition
//   4: B-C 1-0 checkmate        5: C-B 1-0 checkmate
// Tournament "other": one game A(v2)-C 1-0 checkmate on 2026-11-20.
Db make_db(const test::TestDatabase& database) {
  Db d{database.open()};
  Store& s = d.store;
  d.rr = s.catalog().create_tournament({"rr", db::TournamentKind::Run, "", 1, ""}).id;
  d.other = s.catalog().create_tournament({"other", db::TournamentKind::Run, "", 2, ""}).id;
  d.a = s.catalog().upsert_engine({"A", "/bin/a", "", "", "", "sha-a1", false});
  d.b = s.catalog().upsert_engine({"B", "/bin/b", "", "", "", "sha-b", false});
  d.c = s.catalog().upsert_engine({"C", "", "", "", "", "", true});
  d.a2 = s.catalog().upsert_engine({"A", "/bin/a", "", "", "", "sha-a2", false});
  const std::int64_t id[] = {d.a, d.b, d.c};
  auto put = [&](std::int64_t t, const GameRecord& g, int w, int b) {
    s.games().insert_game(t, g, id[w], id[b]);
  };
  put(d.rr, game(0, "A", "B", Result::WhiteWins, Termination::Checkmate, "White mates"), 0, 1);
  put(d.rr, game(1, "B", "A", Result::Draw, Termination::Repetition, "Draw by 3-fold repetition"),
      1, 0);
  put(d.rr, game(2, "A", "C", Result::BlackWins, Termination::TimeForfeit, "White loses on time"),
      0, 2);
  put(d.rr, game(3, "C", "A", Result::Draw, Termination::Repetition, "Draw by 3-fold repetition"),
      2, 0);
  put(d.rr, game(4, "B", "C", Result::WhiteWins, Termination::Checkmate, "White mates"), 1, 2);
  put(d.rr, game(5, "C", "B", Result::WhiteWins, Termination::Checkmate, "White mates"), 2, 1);
  auto g = game(0, "A", "C", Result::WhiteWins, Termination::Checkmate, "White mates");
  g.start_time = "2026-11-20T08:00:00Z";
  s.games().insert_game(d.other, g, d.a2, d.c);
  return d;
}

GameFilter in_rr() {
  GameFilter f;
  f.tournaments = {"rr"};
  return f;
}

// An import tournament and engines A and B: their ids.
std::array<std::int64_t, 3> import_setup(Store& store) {
  return {store.catalog().create_tournament({"imported", db::TournamentKind::Import, "", 0, ""}).id,
          store.catalog().upsert_engine({"A", "", "", "", "", "", false}),
          store.catalog().upsert_engine({"B", "", "", "", "", "", false})};
}

// What a PGN file gives for a game: the move and, for the first `book` ones, "book"; every
// third SAN marked as a check when `checks`.
GameRecord plain_game(int index, int plies, int book, bool checks) {
  GameRecord g = test::synthetic_game(index, plies, "A", "B");
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    MoveRecord m;
    m.uci = g.moves[i].uci;
    m.san = g.moves[i].san + (checks && i % 3 == 2 ? "+" : "");
    m.book = static_cast<int>(i) < book;
    g.moves[i] = m;
  }
  return g;
}

}  // namespace

STORE_TEST("standings of a tournament by points") {
  Db d = make_db(database);
  const auto s = d.store.queries().standings(in_rr());
  REQUIRE(s.size() == 3);
  // C: W2 D1 L1 = 2.5; A: W1 D2 L1 = 2; B: W1 D1 L2 = 1.5
  CHECK(s[0].engine == "C");
  CHECK((s[0].games == 4 && s[0].wins == 2 && s[0].draws == 1 && s[0].losses == 1));
  CHECK(s[0].points() == 2.5);
  CHECK(s[1].engine == "A");
  CHECK((s[1].wins == 1 && s[1].draws == 2 && s[1].losses == 1));
  CHECK(s[2].engine == "B");
  CHECK((s[2].wins == 1 && s[2].draws == 1 && s[2].losses == 2));
}

STORE_TEST("versions of an engine count as one player across tournaments") {
  Db d = make_db(database);
  const auto s = d.store.queries().standings({});
  // With "other": A (both versions) W2 D2 L1 = 3, C W2 D1 L2 = 2.5, B = 1.5
  REQUIRE(s.size() == 3);
  CHECK(s[0].engine == "A");
  CHECK((s[0].games == 5 && s[0].wins == 2 && s[0].draws == 2 && s[0].losses == 1));
  CHECK(s[1].engine == "C");
  CHECK(s[1].games == 5);
  auto versions = d.store.catalog().engines();
  REQUIRE(versions.size() == 4);
  CHECK(versions[0].info.name == "A");
  CHECK(versions[0].games == 4);
  CHECK(versions[1].info.binary_sha256 == "sha-a2");
  CHECK(versions[1].games == 1);
  CHECK(versions[1].last_played == "2026-11-20T08:00:00Z");
}

STORE_TEST("pair counts keep colours and head-to-head merges them") {
  Db d = make_db(database);
  const auto pc = d.store.queries().pair_counts(in_rr());
  REQUIRE(pc.size() == 6);
  auto find = [&](const std::string& w, const std::string& b) {
    for (const auto& c : pc)
      if (c.white == w && c.black == b) return c;
    FAIL("no pair " << w << "-" << b);
    return db::PairCount{};
  };
  CHECK(find("A", "B").white_wins == 1);
  CHECK(find("B", "A").draws == 1);
  CHECK(find("A", "C").black_wins == 1);
  CHECK(find("C", "B").white_wins == 1);

  const auto h = d.store.queries().head_to_head(in_rr());
  auto cell = [&](const std::string& e, const std::string& o) {
    for (const auto& x : h)
      if (x.engine == e && x.opponent == o) return x;
    FAIL("no cell " << e << "-" << o);
    return db::HeadToHead{};
  };
  CHECK((cell("A", "B").wins == 1 && cell("A", "B").draws == 1 && cell("A", "B").losses == 0));
  CHECK((cell("B", "A").wins == 0 && cell("B", "A").losses == 1));
  CHECK((cell("A", "C").wins == 0 && cell("A", "C").draws == 1 && cell("A", "C").losses == 1));
  CHECK((cell("B", "C").wins == 1 && cell("B", "C").losses == 1));
}

STORE_TEST("rating subsets keep games with both players in the engine set") {
  Db d = make_db(database);
  GameFilter f;
  f.engines = {"A", "C"};
  f.both_engines_in_set = true;
  const auto pc = d.store.queries().pair_counts(f);
  // rr games 2 and 3 plus the "other" game
  std::int64_t games = 0;
  for (const auto& c : pc) {
    CHECK(((c.white == "A" && c.black == "C") || (c.white == "C" && c.black == "A")));
    games += c.games();
  }
  CHECK(games == 3);
  f.both_engines_in_set = false;
  CHECK(d.store.queries().count_games(f) == 7);
  f.since = "2026-11-10";
  CHECK(d.store.queries().count_games(f) == 1);
}

STORE_TEST("termination counts") {
  Db d = make_db(database);
  const auto t = d.store.queries().termination_counts(in_rr());
  REQUIRE(t.size() == 3);
  CHECK((t[0].termination == "checkmate" && t[0].count == 3));
  CHECK((t[1].termination == "repetition" && t[1].count == 2));
  CHECK((t[2].termination == "time forfeit" && t[2].count == 1));
  const auto r = d.store.queries().termination_counts(in_rr(), true);
  REQUIRE(r.size() == 3);
  CHECK(r[2].reason == "White loses on time");
}

STORE_TEST("pair results for pentanomial counts") {
  Db d = make_db(database);
  const auto p = d.store.queries().pair_results(in_rr());
  REQUIRE(p.size() == 3);
  CHECK((p[0].round == 0 && p[0].pair == 0));
  REQUIRE(p[0].games.size() == 2);
  CHECK((p[0].games[0].white == "A" && p[0].games[0].result == Result::WhiteWins));
  CHECK((p[0].games[1].white == "B" && p[0].games[1].result == Result::Draw));
  CHECK((p[1].round == 0 && p[1].pair == 1));
  CHECK((p[2].round == 1 && p[2].pair == 0));
  CHECK(p[2].games[1].black == "B");
}

STORE_TEST("games list filters") {
  Db d = make_db(database);
  GameFilter f = in_rr();
  CHECK(d.store.queries().games(f).size() == 6);
  f.result = "1-0";
  CHECK(d.store.queries().games(f).size() == 3);
  f.result.clear();
  f.termination = "time forfeit";
  auto g = d.store.queries().games(f);
  REQUIRE(g.size() == 1);
  CHECK(g[0].white == "A");
  CHECK(g[0].black == "C");
  CHECK(g[0].result == Result::BlackWins);
  CHECK(g[0].termination == Termination::TimeForfeit);
  CHECK(g[0].reason == "White loses on time");
  CHECK(g[0].tournament == "rr");
  CHECK(g[0].plies == 8);
  f.termination.clear();
  f.since = "2026-11-04";
  CHECK(d.store.queries().games(f).size() == 3);
  f.since.clear();
  f.until = "2026-11-02";
  CHECK(d.store.queries().games(f).size() == 1);
  f.until.clear();
  f.engines = {"A"};
  CHECK(d.store.queries().games(f).size() == 4);
  GameFilter recent;
  recent.limit = 2;
  recent.newest_first = true;
  auto latest = d.store.queries().games(recent);
  REQUIRE(latest.size() == 2);
  CHECK(latest[0].tournament == "other");
  CHECK(latest[1].game_id.index == 5);
  GameFilter by_id;
  by_id.tournament_ids = {d.other};
  CHECK(d.store.queries().games(by_id).size() == 1);
}

STORE_TEST("a filter value that looks like SQL matches nothing and breaks nothing") {
  Db d = make_db(database);
  const std::string evil = "x' OR '1'='1";
  const std::string evil2 = "rr\"; DROP TABLE games; --";
  for (const std::string& v : {evil, evil2}) {
    GameFilter f;
    f.tournaments = {v};
    CHECK(d.store.queries().count_games(f) == 0);
    f = {};
    f.engines = {v};
    CHECK(d.store.queries().games(f).empty());
    f = {};
    f.result = v;
    CHECK(d.store.queries().standings(f).empty());
    f = {};
    f.termination = v;
    CHECK(d.store.queries().termination_counts(f).empty());
    f = {};
    f.since = v;  // compares as text: sorts after every ISO date
    CHECK(d.store.queries().pair_results(f).empty());
  }
  // Stored literally as a name, and found only as itself.
  const auto t = d.store.catalog().create_tournament({evil, db::TournamentKind::Run, evil, 0, ""});
  d.store.games().insert_game(t.id, test::synthetic_game(0, 4, "A", "B"), d.a, d.b);
  GameFilter f;
  f.tournaments = {evil};
  CHECK(d.store.queries().count_games(f) == 1);
  CHECK(d.store.catalog().find_tournament(evil)->config_text == evil);
  CHECK(d.store.queries().count_games({}) == 8);
  CHECK(d.store.catalog().tournaments().size() == 3);
  CHECK(d.store.integrity_check() == "ok");
}

STORE_TEST("a restarted tournament's name filter sees only the live one") {
  Db d = make_db(database);
  auto fresh =
      d.store.catalog().restart_tournament(d.rr, {"rr", db::TournamentKind::Run, "", 5, ""});
  CHECK(d.store.queries().count_games(in_rr()) == 0);
  GameFilter old;
  old.tournament_ids = {d.rr};
  CHECK(d.store.queries().count_games(old) == 6);
  d.store.games().insert_game(fresh.id, test::synthetic_game(0, 4, "A", "B"), d.a, d.b);
  CHECK(d.store.queries().count_games(in_rr()) == 1);
}

STORE_TEST("importing the same games twice adds nothing") {
  Store store = database.open();
  Store& s = store;
  const auto [t, a, b] = import_setup(s);
  std::vector<db::ImportItem> items;
  for (int i = 0; i < 3; ++i) {
    auto g = test::synthetic_game(i, 10, i % 2 ? "B" : "A", i % 2 ? "A" : "B");
    items.push_back({g, i % 2 ? b : a, i % 2 ? a : b,
                     std::string("Event=x;Round=").append(std::to_string(i + 1))});
  }
  auto first = s.games().import_games(t, items);
  CHECK(first == std::vector<db::ImportOutcome>(3, db::ImportOutcome::Inserted));
  const auto ids = s.queries().stored_game_ids(t);
  REQUIRE(ids.size() == 3);
  // Imported games are paired two by two in file order.
  CHECK(ids[0] == GameId{0, 0, 0, 0});
  CHECK(ids[1] == GameId{0, 0, 1, 1});
  CHECK(ids[2] == GameId{0, 1, 0, 2});

  auto again = s.games().import_games(t, items);
  CHECK(again == std::vector<db::ImportOutcome>(3, db::ImportOutcome::Duplicate));
  CHECK(s.queries().count_games() == 3);

  // A new game among old ones: only it goes in, after the others.
  auto g = test::synthetic_game(7, 12, "A", "B");
  std::vector<db::ImportItem> mixed = {
      items[1], {g, a, b, "Event=x;Round=8"}, {g, a, b, "Event=x;Round=8"}};
  auto third = s.games().import_games(t, mixed);
  CHECK(third == std::vector<db::ImportOutcome>{db::ImportOutcome::Duplicate,
                                                db::ImportOutcome::Inserted,
                                                db::ImportOutcome::Duplicate});
  CHECK(s.queries().stored_game_ids(t).back() == GameId{0, 1, 1, 3});
  CHECK(s.queries().count_games() == 4);
  // Same moves under another key (another round of the event) is another game.
  CHECK(db::GameWrites::content_hash(g, "Round=8") != db::GameWrites::content_hash(g, "Round=9"));
  CHECK(s.integrity_check() == "ok");
}

STORE_TEST("an imported game's moves are lists in its row, read back as they went in") {
  Store store = database.open();
  const auto [t, a, b] = import_setup(store);
  const auto plain = [](int index, int plies, int book) {
    return plain_game(index, plies, book, true);
  };
  std::vector<db::ImportItem> items = {{plain(0, 9, 2), a, b, "k0"},
                                       {plain(1, 0, 0), a, b, "k1"},
                                       // a book move after an engine's: rows keep its flag
                                       {plain(2, 5, 0), a, b, "k2"},
                                       // figures from a comment: rows keep them
                                       {test::synthetic_game(3, 6, "A", "B"), a, b, "k3"}};
  items[2].record.moves[3].book = true;
  REQUIRE(store.games().import_games(t, items) ==
          std::vector<db::ImportOutcome>(4, db::ImportOutcome::Inserted));
  CHECK(database.number("SELECT count(*) FROM games WHERE moves_uci IS NOT NULL") == 2);
  CHECK(database.value("SELECT moves_san FROM games WHERE schedule_index = 0") ==
        "N0 N1 N2+ N3 N4 N5+ N6 N7 N8+");
  CHECK(database.number("SELECT count(*) FROM games WHERE moves_uci = '' AND plies = 0") == 1);
  // Only the two games that cannot be lists have rows.
  CHECK(database.number("SELECT count(*) FROM moves") == 5 + 6);
  std::vector<GameRecord> read;
  store.queries().for_each_game(
      {}, [&](const db::StoredGame& g) { read.push_back(g.record); }, true);
  REQUIRE(read.size() == 4);
  for (std::size_t i = 0; i < read.size(); ++i) {
    const GameRecord& want = items[i].record;
    REQUIRE(read[i].moves.size() == want.moves.size());
    for (std::size_t k = 0; k < want.moves.size(); ++k) {
      INFO("game " << i << " ply " << k + 1);
      CHECK(read[i].moves[k].uci == want.moves[k].uci);
      CHECK(read[i].moves[k].san == want.moves[k].san);
      CHECK(read[i].moves[k].book == want.moves[k].book);
      CHECK(read[i].moves[k].eval == want.moves[k].eval);
    }
  }
  // One game read alone (the game page) reads the same.
  const auto id = database.number("SELECT id FROM games WHERE schedule_index = 0");
  auto one = store.queries().game(id);
  REQUIRE(one);
  REQUIRE(one->record.moves.size() == 9);
  CHECK(one->record.moves[8].uci == items[0].record.moves[8].uci);
  CHECK((one->record.moves[1].book && !one->record.moves[2].book));
  CHECK(store.integrity_check() == "ok");
  // Every game above kept its whole PGN text; none of them gave its tags alone.
  CHECK(database.number("SELECT count(*) FROM games WHERE pgn_tags IS NOT NULL") == 0);
  // A list that disagrees with the ply count is found.
  database.exec("UPDATE games SET moves_uci = 'e2e4' WHERE schedule_index = 0");
  CHECK(store.integrity_check().find("1 games whose moves are missing or extra") !=
        std::string::npos);
}

STORE_TEST("an imported game given as its PGN tags keeps them alone and reads back whole") {
  Store store = database.open();
  const auto [t, a, b] = import_setup(store);
  const auto plain = [](int index, int plies, int book) {
    GameRecord g = plain_game(index, plies, book, false);
    g.pgn.clear();
    return g;
  };
  const std::string tags = "[Event \"x\"]\n[Round \"1\"]\n\n";
  std::vector<db::ImportItem> items = {{plain(0, 9, 2), a, b, "k0", "", tags},
                                       {plain(1, 0, 0), a, b, "k1", "", tags},
                                       // a book move after another's: rows, and the whole text
                                       {plain(2, 5, 0), a, b, "k2", "", tags}};
  items[2].record.moves[3].book = true;
  REQUIRE(store.games().import_games(t, items) ==
          std::vector<db::ImportOutcome>(3, db::ImportOutcome::Inserted));
  // The two games whose moves are lists keep the tags alone and no PGN text.
  CHECK(database.number("SELECT count(*) FROM games WHERE pgn_tags IS NOT NULL AND pgn = '' "
                        "AND moves_san IS NOT NULL") == 2);
  CHECK(database.value("SELECT pgn_tags FROM games WHERE schedule_index = 0") == tags);
  CHECK(database.value("SELECT pgn FROM games WHERE schedule_index = 2") ==
        tags + plain_movetext(items[2].record));
  CHECK(database.number("SELECT count(*) FROM games WHERE schedule_index = 2 AND "
                        "pgn_tags IS NULL") == 1);
  // Every reader gets the whole text: tags, then the moves with their {book} and reason.
  std::vector<std::string> texts;
  store.queries().for_each_game(
      {}, [&](const db::StoredGame& g) { texts.push_back(g.record.pgn); }, false);
  REQUIRE(texts.size() == 3);
  for (std::size_t i = 0; i < texts.size(); ++i)
    CHECK(texts[i] == tags + plain_movetext(items[i].record));
  CHECK(texts[0].find("N0 {book}") != std::string::npos);
  CHECK(texts[0].find("{White mates} 1-0") != std::string::npos);
  CHECK(texts[1] == tags + "{White mates} 1-0\n\n");
  const auto id = database.number("SELECT id FROM games WHERE schedule_index = 0");
  auto one = store.queries().game(id);
  REQUIRE(one);
  CHECK(one->record.pgn == texts[0]);
  CHECK(one->record.moves.size() == 9);
  CHECK(store.integrity_check() == "ok");
  // Tags without lists to write the moves from are found.
  database.exec("UPDATE games SET moves_san = NULL WHERE schedule_index = 0");
  CHECK(store.integrity_check().find("1 games kept as PGN tags without their moves as lists") !=
        std::string::npos);
}

STORE_TEST("an imported game given as move lists is the game given as records") {
  Store store = database.open();
  const auto [t, a, b] = import_setup(store);
  const std::string tags = "[Event \"x\"]\n[Round \"1\"]\n\n";
  GameRecord whole = plain_game(0, 9, 2, true);
  whole.pgn.clear();
  // The same game with its moves as the lists an importer builds.
  db::MoveLists lists;
  for (const MoveRecord& m : whole.moves) {
    lists.uci += (lists.uci.empty() ? "" : " ") + m.uci;
    lists.san += (lists.san.empty() ? "" : " ") + m.san;
    if (m.book) lists.book_uci += (lists.book_uci.empty() ? "" : " ") + m.uci;
  }
  lists.plies = static_cast<int>(whole.moves.size());
  GameRecord bare = whole;
  bare.moves.clear();
  CHECK(db::GameWrites::content_hash(bare, "k0", &lists) ==
        db::GameWrites::content_hash(whole, "k0"));
  db::ImportItem as_lists{bare, a, b, "k0", "", tags};
  as_lists.lists = lists;
  REQUIRE(store.games().import_games(t, std::vector<db::ImportItem>{as_lists}) ==
          std::vector<db::ImportOutcome>{db::ImportOutcome::Inserted});
  // Given again as records (its hash computed here), it is already there.
  REQUIRE(
      store.games().import_games(t, std::vector<db::ImportItem>{{whole, a, b, "k0", "", tags}}) ==
      std::vector<db::ImportOutcome>{db::ImportOutcome::Duplicate});
  CHECK(database.value("SELECT opening_moves FROM games") == lists.book_uci);
  CHECK(database.number("SELECT plies FROM games") == 9);
  CHECK(database.number("SELECT count(*) FROM moves") == 0);
  std::vector<db::StoredGame> read;
  store.queries().for_each_game(
      {}, [&](const db::StoredGame& g) { read.push_back(g); }, true);
  REQUIRE(read.size() == 1);
  CHECK(read[0].record.pgn == tags + plain_movetext(whole));
  REQUIRE(read[0].record.moves.size() == whole.moves.size());
  for (std::size_t k = 0; k < whole.moves.size(); ++k) {
    INFO("ply " << k + 1);
    CHECK(read[0].record.moves[k].uci == whole.moves[k].uci);
    CHECK(read[0].record.moves[k].san == whole.moves[k].san);
    CHECK(read[0].record.moves[k].book == whole.moves[k].book);
  }
  CHECK(store.integrity_check() == "ok");
}

STORE_TEST("others_wrote_version moves with another connection's commits, not its own") {
  Store store = database.open();
  const auto before = store.queries().others_wrote_version();
  if (store.is_postgres()) {
    CHECK_FALSE(before.has_value());  // every worker's tally counts instead
    return;
  }
  REQUIRE(before.has_value());
  store.catalog().create_tournament({"own", db::TournamentKind::Run, "cfg", 1, ""});
  CHECK(store.queries().others_wrote_version() == before);
  database.exec("INSERT INTO engines (name, first_seen) VALUES ('other', '2026-11-28T00:00:00Z')");
  const auto after = store.queries().others_wrote_version();
  CHECK(after != before);
  CHECK(store.queries().others_wrote_version() == after);
}

namespace {

// Engine health's fixture: games with a latency on some moves, one of them from a position
// with Black to move, and a second version of A (the versions count as one player).
//   0: A-B 1-0, from the initial position: A's latencies 5, -, 2; B's 7, 30, -
//   1: B-A 0-1, Black (A) moves first:     A's latencies 40, 3;   B's 1
//   2: A(v2)-B 0-1, A loses on time, no latency known
// A: 3 games, 1 time loss, 4 moves with a latency, sum 50, max 40.
// B: 3 games, 3 moves with a latency, sum 38, max 30.
struct HealthDb {
  Store store;
  std::int64_t tournament = 0;
};

HealthDb health_db(const test::TestDatabase& database) {
  HealthDb d{database.open()};
  Store& s = d.store;
  d.tournament = s.catalog().create_tournament({"h", db::TournamentKind::Run, "", 1, ""}).id;
  const std::int64_t a = s.catalog().upsert_engine({"A", "/bin/a", "", "", "", "sha-a1", false});
  const std::int64_t b = s.catalog().upsert_engine({"B", "/bin/b", "", "", "", "sha-b", false});
  const std::int64_t a2 = s.catalog().upsert_engine({"A", "/bin/a", "", "", "", "sha-a2", false});
  const auto with_latency = [](GameRecord g, std::vector<std::optional<std::int64_t>> ms) {
    for (std::size_t i = 0; i < g.moves.size(); ++i) g.moves[i].latency_ms = ms[i];
    return g;
  };
  const std::optional<std::int64_t> none;
  s.games().insert_game(d.tournament,
                        with_latency(test::synthetic_game(0, 6, "A", "B"), {5, 7, none, 30, 2, none}),
                        a, b);
  GameRecord black_first = test::synthetic_game(1, 3, "B", "A", Result::BlackWins);
  black_first.start_fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  s.games().insert_game(d.tournament, with_latency(black_first, {40, 1, 3}), b, a);
  GameRecord forfeit = test::synthetic_game(2, 4, "A", "B", Result::BlackWins);
  forfeit.termination = Termination::TimeForfeit;
  forfeit.reason = "White loses on time";
  s.games().insert_game(d.tournament, forfeit, a2, b);
  return d;
}

void check_health(const std::vector<db::EngineHealth>& health) {
  REQUIRE(health.size() == 2);
  CHECK(health[0].engine == "A");
  CHECK(health[0].games == 3);
  CHECK(health[0].time_losses == 1);
  CHECK(health[0].disconnects + health[0].stalls + health[0].illegal_moves == 0);
  CHECK(health[0].latency_moves == 4);
  CHECK(health[0].latency_sum_ms == 50);
  CHECK(health[0].latency_max_ms == 40);
  CHECK(health[1].engine == "B");
  CHECK(health[1].games == 3);
  CHECK(health[1].time_losses == 0);
  CHECK(health[1].latency_moves == 3);
  CHECK(health[1].latency_sum_ms == 38);
  CHECK(health[1].latency_max_ms == 30);
}

}  // namespace

STORE_TEST("engine health: faults and each side's latency, from a game's row") {
  HealthDb d = health_db(database);
  check_health(d.store.queries().engine_health({}));
  // The rows themselves: White's and Black's latency of game 1 (A plays Black and moves first).
  CHECK(database.value("SELECT white_latency_moves || ',' || white_latency_sum_ms || ',' || "
                       "white_latency_max_ms || ';' || black_latency_moves || ',' || "
                       "black_latency_sum_ms || ',' || black_latency_max_ms FROM games WHERE "
                       "game_in_pair = 1") == "1,1,1;2,43,40");
  CHECK(database.number("SELECT sum(white_latency_moves + black_latency_moves) FROM games WHERE "
                        "round = 0 AND pair = 1") == 0);
  // A filter on the result keeps games 1 and 2, and only their figures.
  GameFilter f;
  f.result = "0-1";
  const auto black_won = d.store.queries().engine_health(f);
  REQUIRE(black_won.size() == 2);
  CHECK((black_won[0].games == 2 && black_won[0].time_losses == 1));
  CHECK((black_won[0].latency_moves == 2 && black_won[0].latency_sum_ms == 43 &&
         black_won[0].latency_max_ms == 40));
  CHECK((black_won[1].games == 2 && black_won[1].latency_moves == 1 &&
         black_won[1].latency_sum_ms == 1 && black_won[1].latency_max_ms == 1));
}

STORE_TEST("games stored before version 11 get each side's latency from their moves") {
  { HealthDb d = health_db(database); }
  // The database as version 10 left it: the same games and moves, no latency in the rows.
  for (const char* column :
       {"white_latency_moves", "white_latency_sum_ms", "white_latency_max_ms",
        "black_latency_moves", "black_latency_sum_ms", "black_latency_max_ms"})
    database.exec(std::string("ALTER TABLE games DROP COLUMN ") + column);
  database.exec(database.sqlite() ? "PRAGMA user_version = 10"
                                  : "UPDATE schema_version SET version = 10");
  Store store = database.open();
  CHECK(store.schema_version() == 11);
  check_health(store.queries().engine_health({}));
  CHECK(database.value("SELECT black_latency_moves || ',' || black_latency_sum_ms || ',' || "
                       "black_latency_max_ms FROM games WHERE game_in_pair = 1") == "2,43,40");
  CHECK(store.integrity_check() == "ok");
  // Figures that are not the moves' are found.
  database.exec("UPDATE games SET white_latency_sum_ms = white_latency_sum_ms + 1 WHERE "
                "game_in_pair = 1");
  CHECK(store.integrity_check() ==
        "1 games whose latency figures are not their moves' (engine health reads them)");
}

// A run's phases as objects, each against a real SQLite store and real files: the
// TournamentOpener (find, create, join, refuse a changed config, restart) and the OutputFiles
// (the PGN and EPD files through one writer).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "db/store/store.h"
#include "runner/config/config_toml.h"
#include "runner/run/output_files.h"
#include "runner/run/run_events.h"
#include "runner/run/tournament_opener.h"
#include "tests/support/process.h"

using namespace knightly;
using knightly::test::TempDir;

namespace {

struct Lines : runner::RunObserver {
  std::vector<std::string> messages, errors;
  void on_message(const std::string& line) override { messages.push_back(line); }
  void on_error(const std::string& line) override { errors.push_back(line); }
};

runner::Config config_of(int rounds, const std::string& name = "phases") {
  const std::string text = "[tournament]\nname = \"" + name +
                           "\"\nrounds = " + std::to_string(rounds) +
                           "\ngames = 2\nseed = 5\n"
                           "[[engine]]\nname = \"a\"\nbuiltin = true\ndepth = 1\n"
                           "[[engine]]\nname = \"b\"\nbuiltin = true\ndepth = 1\n";
  auto c = runner::parse_config_toml(text);
  if (!c) throw std::runtime_error(c.error().to_string());
  return std::move(*c);
}

db::Store open_store(const std::string& path) {
  auto s = db::Store::open(path);
  if (!s) throw std::runtime_error(s.error().message);
  return std::move(*s);
}

// What the opener needs around it.
struct Opening {
  Lines lines;
  runner::StopToken stop;
  runner::RunEvents events{lines, stop, runner::OnStop::Finish};
  runner::RunOptions options;
};

}  // namespace

TEST_CASE("the opener creates a tournament, joins it, refuses a changed config and restarts it",
          "[run][phases]") {
  TempDir dir;
  db::Store store = open_store(dir.file("t.db"));
  const runner::Config config = config_of(2);
  Opening o;
  runner::TournamentOpener opener(store, config, o.options, o.events);

  auto first = opener.open();
  REQUIRE(first);
  CHECK(first->created);
  CHECK(first->stored == 0);
  CHECK_FALSE(opener.finished(*first));
  const runner::Schedule schedule(config, first->tournament.seed, 0);
  const auto worker = opener.join(*first, schedule, o.stop);
  REQUIRE(worker);
  // The pairs are recorded: this worker can claim the first one.
  const auto claim =
      store.work().claim_pair(first->tournament.id, *worker, std::chrono::seconds(30));
  REQUIRE(claim.status == db::ClaimStatus::Claimed);
  CHECK(claim.claim->schedule_index == 0);
  CHECK(claim.claim->games == 2);

  // The same config again: the same tournament, not a new one.
  auto again = opener.open();
  REQUIRE(again);
  CHECK_FALSE(again->created);
  CHECK(again->tournament.id == first->tournament.id);

  // Another config under the same name is refused, saying which lines differ.
  const runner::Config changed = config_of(3);
  runner::TournamentOpener other(store, changed, o.options, o.events);
  auto refused = other.open();
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error(), Catch::Contains("was started with a different configuration") &&
                                  Catch::Contains("  - rounds = 2") &&
                                  Catch::Contains("  + rounds = 3") &&
                                  Catch::Contains("--restart"));

  // --restart: a new tournament under the name, the old one kept under its id.
  o.options.restart = true;
  runner::TournamentOpener restart(store, changed, o.options, o.events);
  auto restarted = restart.open();
  REQUIRE(restarted);
  CHECK(restarted->created);
  CHECK(restarted->tournament.id != first->tournament.id);
  REQUIRE_FALSE(o.lines.messages.empty());
  CHECK_THAT(o.lines.messages.back(),
             Catch::Contains("Restarting tournament 'phases'") &&
                 Catch::Contains("kept as id " + std::to_string(first->tournament.id)));
}

TEST_CASE("the opener finds a finished tournament with nothing to play and resumes a stopped one",
          "[run][phases]") {
  TempDir dir;
  db::Store store = open_store(dir.file("t.db"));
  const runner::Config config = config_of(1);
  Opening o;
  runner::TournamentOpener opener(store, config, o.options, o.events);
  auto t = opener.open();
  REQUIRE(t);

  store.catalog().set_tournament_status(t->tournament.id, db::TournamentStatus::Aborted);
  auto aborted = opener.open();
  REQUIRE(aborted);
  CHECK(aborted->control.status == db::TournamentStatus::Aborted);
  opener.resume(*aborted);
  CHECK(store.work().control(t->tournament.id).status == db::TournamentStatus::Running);

  store.work().finish_tournament(t->tournament.id, db::TournamentStatus::Finished,
                                 "complete: all 2 games played");
  auto finished = opener.open();
  REQUIRE(finished);
  CHECK(opener.finished(*finished));
  REQUIRE_FALSE(o.lines.messages.empty());
  CHECK_THAT(o.lines.messages.back(), Catch::Contains("is already finished") &&
                                          Catch::Contains("complete: all 2 games played") &&
                                          Catch::Contains("nothing to play"));
}

TEST_CASE("the PGN and EPD files go through one writer: claimed, emptied, given each game",
          "[run][phases]") {
  TempDir dir;
  db::Store store = open_store(dir.file("t.db"));
  runner::Config config = config_of(1);
  config.output.pgn = dir.file("games.pgn");
  config.output.epd = dir.file("games.epd");
  config.output.pgn_append = config.output.epd_append = false;  // fastchess's append=false
  knightly::test::write_file(config.output.pgn, "an older match's games\n");
  knightly::test::write_file(config.output.epd, "an older match's positions\n");
  const auto id =
      store.catalog().create_tournament({"phases", db::TournamentKind::Run, "cfg", 1, ""}).id;

  runner::OutputFiles files(config);
  REQUIRE(files.claim(store));
  // Another worker of the same tournament shares the files.
  runner::OutputFiles same(config);
  CHECK(same.claim(store));
  // Another tournament naming them is refused, by the file's name and the tournament's.
  runner::Config other_config = config;
  other_config.tournament.name = "other";
  other_config.output.pgn = dir.file("other.pgn");
  runner::OutputFiles other(other_config);
  auto refused = other.claim(store);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error(), Catch::Contains(config.output.epd + " is being written by "
                                                                  "tournament 'phases'"));

  // A new tournament's files start anew (append is off): both emptied.
  REQUIRE(files.open(store, id, true));
  CHECK(knightly::test::read_file(config.output.pgn).empty());
  CHECK(knightly::test::read_file(config.output.epd).empty());

  GameRecord g;
  g.id = {0, 0, 0, 0};
  g.white = "a";
  g.black = "b";
  g.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  g.result = Result::Draw;
  g.termination = Termination::AdjudicationDraw;
  g.reason = "Draw by adjudication";
  g.start_time = "2026-11-27T10:00:00Z";
  for (const char* uci : {"g1f3", "g8f6"}) {
    MoveRecord m;
    m.uci = uci;
    g.moves.push_back(m);
  }
  g.pgn = "[Event \"phases\"]\n\n1. Nf3 Nf6 1/2-1/2\n";
  const auto a = store.catalog().upsert_engine({"a", "", "", "", "", "", true});
  const auto b = store.catalog().upsert_engine({"b", "", "", "", "", "", true});
  store.games().insert_game(id, g, a, b);
  CHECK(files.add(store, id, 0, g, {}).empty());
  CHECK(knightly::test::read_file(config.output.pgn) == g.pgn + "\n");
  CHECK(knightly::test::read_file(config.output.epd) ==
        "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2\n");
  CHECK(files.finish(store, id).empty());
  CHECK(knightly::test::read_file(config.output.pgn) == g.pgn + "\n");
}

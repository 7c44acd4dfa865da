// /api/summary's games being played: the claims in the store, with colours from the schedule
// of the stored config and the positions their worker recorded.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "db/store/store.h"
#include "runner/query/page_data.h"

using namespace knightly;

TEST_CASE("summary: a claimed pair shows as being played, with its engines and worker",
          "[serve][summary]") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("knightly-summary-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "s.db").string();
  {
    auto store = db::Store::open(path);
    REQUIRE(store);
    const std::string config =
        "[tournament]\nname = \"live\"\nrounds = 2\n"
        "[[engine]]\nname = \"<b>first</b>\"\nbuiltin = true\ndepth = 1\n"
        "[[engine]]\nname = \"second\"\nbuiltin = true\ndepth = 1\n";
    const auto t =
        store->catalog().create_tournament({"live", db::TournamentKind::Run, config, 9, ""});
    const auto w = store->work().register_worker({"box", 77, "2026-01-01T00:00:00.000Z"});
    std::vector<db::PairSlot> slots{{0, 0, 2, 0}, {1, 0, 2, 2}};
    store->work().add_pairs(t.id, slots);
    auto first = store->work().claim_pair(t.id, w, std::chrono::minutes(1));
    REQUIRE(first.status == db::ClaimStatus::Claimed);
    auto second = store->work().claim_pair(t.id, w, std::chrono::minutes(1));
    REQUIRE(second.status == db::ClaimStatus::Claimed);
    // The first pair's first game is under way, at the position its worker recorded last.
    const std::string after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    const std::string after_e4_e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    store->work().set_live_position(*first.claim, 0, 1, after_e4);
    store->work().set_live_position(*first.claim, 0, 2, after_e4_e5);
    // The second pair's first game is stored: its second game (colours reversed) is playing,
    // and has no position yet (the one recorded is its first game's).
    store->work().set_live_position(*second.claim, 0, 7, after_e4);
    const auto a = store->catalog().upsert_engine({"<b>first</b>", "", "", "", "", "", true});
    const auto b = store->catalog().upsert_engine({"second", "", "", "", "", "", true});
    GameRecord g;
    g.id = {1, 0, 0, 2};
    g.white = "<b>first</b>";
    g.black = "second";
    g.result = Result::Draw;
    g.start_time = "2026-01-01T00:00:00Z";
    store->games().store_game(*second.claim, g, a, b);
  }
  db::StoreOptions ro;
  ro.mode = db::OpenMode::ReadOnly;
  auto reader = db::Store::open(path, ro);
  REQUIRE(reader);
  const std::string s = runner::summary_document(*reader, {}, "2026-01-01T00:00:01Z");
  INFO(s);
  CHECK(s.find(R"("name":"live","kind":"run","status":"running")") != std::string::npos);
  CHECK(s.find(R"("games":1,"total":4)") != std::string::npos);
  CHECK(
      s.find(
          R"({"tournament":"live","round":1,"pair":1,"game":1,"white":"\u003cb\u003efirst\u003c/b\u003e","black":"second","worker":"box:77","fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2","ply":2,)") !=
      std::string::npos);
  CHECK(
      s.find(
          R"({"tournament":"live","round":2,"pair":1,"game":2,"white":"second","black":"\u003cb\u003efirst\u003c/b\u003e","worker":"box:77","fen":"","ply":0,)") !=
      std::string::npos);
  CHECK(s.find(R"("active_note":"")") != std::string::npos);
  std::filesystem::remove_all(dir);
}

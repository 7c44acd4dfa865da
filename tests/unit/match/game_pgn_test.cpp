#include "runner/match/game_pgn.h"

#include <catch2/catch.hpp>
#include <regex>
#include <sstream>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "runner/match/game.h"
#include "runner/match/pv_check.h"
#include "runner/match/time_control.h"
#include "tests/unit/pgn/pgn_test_util.h"

using namespace knightly;
using namespace knightly::runner;
namespace chess = knightly::chess;
namespace test = knightly::test;

namespace {

MoveReply reply(const std::string& uci, std::optional<int> cp, int depth, std::int64_t ms,
                std::optional<int> mate = std::nullopt) {
  MoveReply r;
  r.bestmove = uci;
  r.eval.score_cp = cp;
  r.eval.mate = mate;
  r.eval.depth = depth;
  r.elapsed_ms = ms;
  return r;
}

GameInfo info() {
  GameInfo i;
  i.event = "Unit \"test\"";
  i.site = "here";
  i.start_time = "2026-11-21T23:59:01Z";
  i.duration_ms = 3'725'000;
  return i;
}

// Our own reader, then pgn-extract as an independent judge: both accept the text and agree
// with the moves the game recorded.
chess::PgnGame read_back(const GameRecord& rec) {
  auto parsed = chess::read_pgn(rec.pgn);
  INFO(rec.pgn);
  for (const auto& e : parsed.errors) FAIL_CHECK(e.message);
  REQUIRE(parsed.games.size() == 1);
  const chess::PgnGame& g = parsed.games[0];
  REQUIRE(g.moves.size() == rec.moves.size());
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    CHECK(chess::to_uci(g.moves[i].move) == rec.moves[i].uci);
    CHECK(g.moves[i].san == rec.moves[i].san);
  }
  CHECK(g.result == result_token(rec.result));
  CHECK(g.tag("Result") == result_token(rec.result));

  test::TempDir dir;
  const std::string path = dir.file("game.pgn");
  test::write_file(path, rec.pgn);
  CHECK(test::pgn_extract_errors(path) == "");
  auto extracted = test::pgn_extract_uci(path, dir);
  CHECK(extracted.errors == "");
  if (!rec.moves.empty()) {
    REQUIRE(extracted.games.size() == 1);
    std::vector<std::string> ours;
    for (const auto& m : rec.moves) ours.push_back(m.uci);
    CHECK(extracted.games[0] == ours);
  }
  std::istringstream lines(rec.pgn);
  for (std::string line; std::getline(lines, line);) CHECK(line.size() < 80);
  return g;
}

}  // namespace

TEST_CASE("PGN of a mate: roster first then tags and cutechess comments with the reason last",
          "[match][pgn]") {
  GameSetup s;
  s.white = "Alpha";
  s.black = "Beta";
  s.limits[chess::White].tc = *parse_time_control("60+0.6");
  s.limits[chess::Black].tc = *parse_time_control("60+0.6");
  Game game = *Game::create(s);
  game.on_reply(reply("f2f3", 35, 12, 520));
  game.on_reply(reply("e7e5", -120, 7, 1234));
  game.on_reply(reply("g2g4", std::nullopt, 9, 50, -1));
  game.on_reply(reply("d8h4", std::nullopt, 3, 10, 1));
  REQUIRE(game.finished());
  GameRecord rec = game.record(info());
  CHECK(rec.reason == "Black mates");
  CHECK(rec.time_control == "60+0.6");
  CHECK(rec.duration_ms == 3'725'000);
  chess::PgnGame g = read_back(rec);

  const char* roster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
  REQUIRE(g.tags.size() >= 7);
  for (int i = 0; i < 7; ++i) CHECK(g.tags[i].first == roster[i]);
  CHECK(g.tag("Event") == "Unit \"test\"");
  CHECK(g.tag("Date") == "2026.11.21");
  CHECK(g.tag("Round") == "1");
  CHECK(g.tag("White") == "Alpha");
  CHECK(g.tag("Black") == "Beta");
  CHECK(g.tag("Result") == "0-1");
  CHECK(g.tag("PlyCount") == "4");
  CHECK(g.tag("TimeControl") == "60+0.6");
  CHECK(g.tag("Termination") == "normal");
  CHECK(g.tag("GameStartTime") == "2026-11-21T23:59:01Z");
  CHECK(g.tag("GameDuration") == "01:02:05");
  CHECK(g.tag("FEN") == "");
  CHECK(g.tag("SetUp") == "");
  CHECK(g.tag("Opening") == "");
  CHECK(g.moves[0].comment == "+0.35/12 0.52s");
  CHECK(g.moves[1].comment == "-1.20/7 1.2s");
  CHECK(g.moves[2].comment == "-M2/9 0.050s");
  CHECK(g.moves[3].comment == "+M1/3 0.010s, Black mates");
  CHECK(rec.pgn.find("[Event \"Unit \\\"test\\\"\"]") != std::string::npos);
}

TEST_CASE("PGN from a FEN with Black to move with book moves and an opening source",
          "[match][pgn]") {
  GameSetup s;
  s.white = "W";
  s.black = "B";
  s.start_fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  s.opening_uci = {"c7c5", "g1f3"};
  s.opening_source = "openings.epd:7";
  s.limits[chess::White].depth = 3;
  s.limits[chess::Black].depth = 3;
  s.adjudication.max_moves = 3;  // plies counted from the FEN: 6 plies
  Game game = *Game::create(s);
  const char* moves[] = {"d7d6", "d2d4", "c5d4", "f3d4"};
  for (const char* m : moves) game.on_reply(reply(m, 10, 3, 5));
  REQUIRE(game.finished());
  CHECK(game.termination() == Termination::MaxMoves);
  GameRecord rec = game.record(info());
  CHECK(rec.time_control == "-");
  chess::PgnGame g = read_back(rec);
  CHECK(g.tag("SetUp") == "1");
  CHECK(g.tag("FEN") == s.start_fen);
  CHECK(g.tag("TimeControl") == "-");
  CHECK(g.tag("Termination") == "adjudication");
  CHECK(g.tag("Opening") == "openings.epd:7");
  CHECK(g.tag("PlyCount") == "6");
  CHECK(g.tag("Result") == "1/2-1/2");
  CHECK(g.moves[0].comment == "book");
  CHECK(g.moves[1].comment == "book");
  CHECK(g.moves[2].comment == "+0.10/3 0.005s");
  CHECK(g.moves[5].comment == "+0.10/3 0.005s, Draw by adjudication");
  CHECK(rec.pgn.find("1... c5") != std::string::npos);
}

TEST_CASE("PGN of faults and interrupted games", "[match][pgn]") {
  struct Row {
    Termination why;
    const char* tag;
    const char* detail;
    const char* reason;
  };
  // A fault's detail (the illegal move, why the engine could not be restarted) stays in the
  // reason; a time loss has none.
  const Row rows[] = {
      {Termination::TimeForfeit, "time forfeit", "", "Black loses on time"},
      {Termination::IllegalMove, "rules infraction", "e7e4", "Black makes an illegal move: e7e4"},
      {Termination::Disconnect, "abandoned", "", "Black disconnects"},
      {Termination::Disconnect, "abandoned", "could not be restarted: no such file",
       "Black disconnects: could not be restarted: no such file"},
      {Termination::Stall, "abandoned", "", "Black's connection stalls"},
  };
  for (const Row& row : rows) {
    INFO(row.reason);
    GameSetup s;
    s.white = "W";
    s.black = "B";
    Game game = *Game::create(s);
    game.on_reply(reply("e2e4", 20, 4, 100));
    game.forfeit(chess::Black, row.why, row.detail);
    GameRecord rec = game.record(info());
    CHECK(rec.reason == row.reason);
    CHECK(rec.result == Result::WhiteWins);
    chess::PgnGame g = read_back(rec);
    CHECK(g.tag("Termination") == row.tag);
    CHECK(g.moves.back().comment == std::string("+0.20/4 0.10s, ") + row.reason);
  }

  GameSetup first;
  Game crashed = *Game::create(first);
  MoveReply disconnected;
  disconnected.status = MoveReply::Status::Disconnected;
  disconnected.elapsed_ms = 5;
  crashed.on_reply(disconnected);
  GameRecord none = crashed.record(info());
  CHECK(read_back(none).comment == "White disconnects");

  GameSetup s;
  s.white = "W";
  s.black = "B";
  Game game = *Game::create(s);
  game.on_reply(reply("d2d4", 0, 1, 1));
  game.on_reply(reply("d7d5", 0, 1, 1));
  game.interrupt();
  GameRecord rec = game.record(info());
  chess::PgnGame g = read_back(rec);
  CHECK(g.tag("Result") == "*");
  CHECK(g.tag("Termination") == "unterminated");
}

TEST_CASE("Termination tag: none for a finished game of unknown ending, never unterminated",
          "[match][pgn]") {
  // A record as import makes it from a PGN without reason or Termination tag (a resignation):
  // cutechess writes no Termination tag for such a game; "unterminated" would mean unfinished.
  GameRecord rec;
  rec.white = "W";
  rec.black = "B";
  rec.result = Result::BlackWins;
  for (const char* m : {"e2e4", "e7e5"}) rec.moves.push_back(MoveRecord{m, "", {}, {}, {}});
  rec.pgn = to_pgn(rec, PgnHeader{});
  INFO(rec.pgn);
  CHECK(rec.pgn.find("Termination") == std::string::npos);
  CHECK(chess::read_pgn(rec.pgn).games.at(0).result == "0-1");
  // Known endings keep their tag; an unfinished record is "unterminated".
  rec.termination = Termination::Checkmate;
  CHECK(to_pgn(rec, PgnHeader{}).find("[Termination \"normal\"]") != std::string::npos);
  rec.termination = Termination::None;
  rec.result = Result::None;
  CHECK(to_pgn(rec, PgnHeader{}).find("[Termination \"unterminated\"]") != std::string::npos);
}

TEST_CASE("rules_end: each rule ending as result, class and cutechess reason", "[match][pgn]") {
  CHECK_FALSE(rules_end(chess::GameEnd::None, chess::White));
  auto mate = rules_end(chess::GameEnd::Checkmate, chess::White);  // White is mated
  REQUIRE(mate);
  CHECK(mate->result == Result::BlackWins);
  CHECK(mate->termination == Termination::Checkmate);
  CHECK(mate->reason == "Black mates");
  auto stale = rules_end(chess::GameEnd::Stalemate, chess::Black);
  REQUIRE(stale);
  CHECK(stale->result == Result::Draw);
  CHECK(stale->reason == "Draw by stalemate");
  CHECK(rules_end(chess::GameEnd::ThreefoldRepetition, chess::White)->termination ==
        Termination::Repetition);
  CHECK(rules_end(chess::GameEnd::FiftyMoveRule, chess::White)->termination ==
        Termination::FiftyMoves);
  CHECK(rules_end(chess::GameEnd::InsufficientMaterial, chess::White)->termination ==
        Termination::InsufficientMaterial);
}

TEST_CASE("a long pseudo-random game round-trips through both PGN readers", "[match][pgn]") {
  GameSetup s;
  s.white = "Random A";
  s.black = "Random B";
  s.limits[chess::White].tc = *parse_time_control("40/60");
  s.limits[chess::Black].tc = *parse_time_control("40/60");
  s.adjudication.max_moves = 150;
  int games_checked = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Game game = *Game::create(s);
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull;
    while (!game.finished()) {
      chess::MoveList legal = game.position().legal_moves();
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      chess::Move m = legal[x % legal.size()];
      int cp = int(x % 2001) - 1000;
      game.on_reply(reply(chess::to_uci(m), cp, 1 + int(x % 30), std::int64_t(x % 1500)));
    }
    GameRecord rec = game.record(info());
    INFO("seed " << seed << ": " << rec.reason);
    read_back(rec);
    // The game's record holds each move and its SAN, so its PGN is written without a replay.
    // The same record with only the UCI text (as read back from a database) is replayed and
    // its SAN found from scratch: the two texts are the same.
    GameRecord text_only = rec;
    for (MoveRecord& m : text_only.moves) {
      REQUIRE_FALSE(m.move.is_none());
      m.move = chess::Move::none();
      m.san.clear();
    }
    PgnHeader header;
    header.event = info().event;
    header.site = info().site;
    header.round = "1";
    header.white_time_control = header.black_time_control =
        pgn_time_control(s.limits[chess::White]);
    CHECK(to_pgn(text_only, header) == rec.pgn);
    ++games_checked;
  }
  CHECK(games_checked == 6);
}

TEST_CASE("pgn-extract does catch a broken game (the check can fail)", "[match][pgn]") {
  test::TempDir dir;
  const std::string path = dir.file("bad.pgn");
  test::write_file(path,
                   "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n"
                   "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh5 0-1\n\n");
  CHECK(test::pgn_extract_errors(path) != "");
}

TEST_CASE("PGN options: fastchess's extra fields, LAN and UCI notation, the minimal form",
          "[match][pgn]") {
  GameSetup s;
  s.white = "W";
  s.black = "B";
  s.limits[chess::White].tc = *parse_time_control("10+0.1");
  s.limits[chess::Black].tc = *parse_time_control("10+0.1");
  Game game = *Game::create(s);
  auto with_info = [](MoveReply r, std::uint64_t nodes, int seldepth, std::uint64_t nps,
                      std::int64_t engine_ms) {
    r.eval.nodes = nodes;
    r.eval.seldepth = seldepth;
    r.eval.nps = nps;
    r.eval.engine_time_ms = engine_ms;
    r.eval.hashfull = 12;
    r.eval.tbhits = 3;
    return r;
  };
  game.on_reply(with_info(reply("e2e4", 30, 10, 250), 1000, 14, 4000, 248));
  game.on_reply(with_info(reply("d7d5", -20, 9, 120), 500, 11, 4100, 119));
  game.on_reply(with_info(reply("e4d5", 60, 11, 300), 2000, 15, 6600, 297));
  game.on_reply(with_info(reply("d8d5", -40, 8, 100), 300, 9, 3000, 100));
  game.on_reply(with_info(reply("b1c3", 50, 12, 200), 900, 16, 4500, 199));
  game.on_reply(with_info(reply("d5e5", -45, 9, 80), 200, 10, 2500, 80));
  game.on_reply(with_info(reply("g1e2", 40, 12, 90), 200, 10, 2500, 88));
  game.on_reply(with_info(reply("e5e4", -50, 9, 90), 200, 10, 2500, 88));
  game.interrupt();
  GameRecord rec = game.record(info());
  const PgnHeader header = game.pgn_header(info());
  CHECK(to_pgn(rec, header) == rec.pgn);  // the default options are cutechess's form

  PgnOptions all;
  all.nodes = all.seldepth = all.nps = all.hashfull = all.tbhits = true;
  all.timeleft = all.latency = true;
  const std::string fields = to_pgn(rec, header, all);
  auto parsed = chess::read_pgn(fields);
  REQUIRE(parsed.games.size() == 1);
  const auto& g = parsed.games[0];
  CHECK(g.moves[0].comment ==
        "+0.30/10 0.25s, tl=9.850s, latency=0.002s, n=1000, sd=14, nps=4000, hashfull=12, "
        "tbhits=3");
  CHECK(g.moves[3].comment.find("latency=0.000s, n=300, sd=9, nps=3000") != std::string::npos);

  PgnOptions lan;
  lan.notation = PgnNotation::Lan;
  const std::string lan_text_ = to_pgn(rec, header, lan);
  CHECK(lan_text_.find("1. e2e4 {+0.30/10 0.25s} 1... d7d5") != std::string::npos);
  CHECK(lan_text_.find("2. e4xd5") != std::string::npos);
  CHECK(lan_text_.find("2... Qd8xd5") != std::string::npos);
  CHECK(lan_text_.find("3. Nb1c3") != std::string::npos);
  CHECK(lan_text_.find("4... Qe5e4") != std::string::npos);

  PgnOptions uci;
  uci.notation = PgnNotation::Uci;
  uci.min = true;
  const std::string min_uci = to_pgn(rec, header, uci);
  CHECK(min_uci.find("1. e2e4 d7d5 2. e4d5 d8d5 3. b1c3 d5e5 4. g1e2 e5e4 *") != std::string::npos);
  CHECK(min_uci.find('{') == std::string::npos);
  CHECK(min_uci.find("PlyCount") == std::string::npos);
  CHECK(min_uci.find("[Result \"*\"]") != std::string::npos);

  PgnOptions min;
  min.min = true;
  auto min_games = chess::read_pgn(to_pgn(rec, header, min));
  REQUIRE(min_games.games.size() == 1);
  CHECK(min_games.games[0].tags.size() == 7);
  CHECK(min_games.games[0].moves.size() == 8);
}

TEST_CASE("PGN fields: what the engine did not report is left out, never written as 0",
          "[match][pgn]") {
  GameSetup s;
  s.white = "W";
  s.black = "B";
  std::regex line_rx("^info string pgncomment ");
  s.match_line = &line_rx;
  Game game = *Game::create(s);
  // White reports everything fastchess writes; Black only a score, a depth and its nodes.
  MoveReply full = reply("e2e4", 30, 10, 250);
  full.eval.nodes = 1000;
  full.eval.seldepth = 14;
  full.eval.nps = 4000;
  full.eval.engine_time_ms = 240;
  full.eval.hashfull = 0;  // reported as 0: written as 0
  full.eval.tbhits = 3;
  full.eval.pv = "e2e4 d7d5";
  full.info_strings = {"pgncomment first", "other", "pgncomment {second}"};
  game.on_reply(full);
  MoveReply bare = reply("d7d5", -20, 9, 120);
  bare.eval.nodes = 500;
  bare.info_strings = {"nothing to match"};
  game.on_reply(bare);
  // A pondering engine's latency counts from `go`, not from ponderhit.
  MoveReply pondered = reply("e4d5", 60, 11, 10);
  pondered.since_go_ms = 300;
  pondered.eval.engine_time_ms = 295;
  game.on_reply(pondered);
  game.interrupt();
  GameRecord rec = game.record(info());
  REQUIRE(rec.moves.size() == 3);
  CHECK(rec.moves[0].latency_ms == 10);
  CHECK(!rec.moves[1].latency_ms);
  CHECK(rec.moves[2].latency_ms == 5);
  CHECK(rec.moves[0].lines == std::vector<std::string>{"info string pgncomment {second}"});
  CHECK(rec.moves[1].lines.empty());

  PgnOptions all;
  all.nodes = all.seldepth = all.nps = all.hashfull = all.tbhits = all.latency = all.pv = true;
  const std::string text = to_pgn(rec, game.pgn_header(info()), all);
  auto parsed = chess::read_pgn(text);
  REQUIRE(parsed.errors.empty());
  REQUIRE(parsed.games.size() == 1);
  const auto& g = parsed.games[0];
  // fastchess's order; braces in an engine's line cannot end the comment.
  CHECK(g.moves[0].comment ==
        "+0.30/10 0.25s, latency=0.010s, n=1000, sd=14, nps=4000, hashfull=0, tbhits=3, "
        "pv=\"e2e4 d7d5\", line=\"info string pgncomment (second)\"");
  CHECK(g.moves[1].comment == "-0.20/9 0.12s, n=500");
  CHECK(g.moves[2].comment.find("latency=0.005s") != std::string::npos);
  test::TempDir dir;
  test::write_file(dir.file("fields.pgn"), text);
  CHECK(test::pgn_extract_errors(dir.file("fields.pgn")) == "");
}

TEST_CASE("PV checks: fastchess's warnings for a PV that does not hold", "[match][pgn]") {
  const chess::Position start;
  MoveEval e;
  CHECK(!check_pv(start, e, false, "E"));  // no PV: nothing to check
  e.pv = "e2e4 e7e5 g1f3";
  CHECK(!check_pv(start, e, false, "E"));
  e.pv = "e2e4 e2e4";
  CHECK(check_pv(start, e, false, "E") == "Warning; Illegal PV move - move e2e4 from E");
  // Fool's mate: 1. f3 e5 2. g4 Qh4#.
  const chess::Position before_mate =
      *chess::Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
  e.pv = "d8h4";
  e.mate = 1;
  CHECK(!check_pv(before_mate, e, false, "E"));
  e.pv = "d8h4 a2a3";
  CHECK(check_pv(before_mate, e, false, "E") ==
        "Warning; PV continues after checkmate - move a2a3 from E");
  e.mate = 2;
  e.pv = "d8h4";
  CHECK(check_pv(before_mate, e, false, "E") == "Warning; Incomplete mating PV - from E");
  CHECK(!check_pv(before_mate, e, true, "E"));  // a bound: no mate check, as fastchess
  e.pv = "d8f6 a2a3 f6f3";
  CHECK(check_pv(before_mate, e, false, "E") ==
        "Warning; Mating PV does not end with checkmate - from E");
  e.mate = 1;
  CHECK(check_pv(before_mate, e, false, "E") == "Warning; Too long mating PV - from E");
  CHECK(pv_warning_text("Warning; X - from E", "info depth 3 score mate 2 pv d8h4", "", "f2f3") ==
        "Warning; X - from E\nInfo; info depth 3 score mate 2 pv d8h4\nPosition; startpos\n"
        "Moves; f2f3");
}

TEST_CASE("LAN text of special moves", "[match][pgn]") {
  auto lan = [](const char* uci, const char* san) {
    MoveRecord m;
    m.uci = uci;
    m.san = san;
    return lan_text(m);
  };
  CHECK(lan("e1g1", "O-O") == "O-O");
  CHECK(lan("e8c8", "O-O-O+") == "O-O-O+");
  CHECK(lan("e7e8q", "e8=Q+") == "e7e8=Q+");
  CHECK(lan("b7a8n", "bxa8=N#") == "b7xa8=N#");
  CHECK(lan("e5d6", "exd6") == "e5xd6");
  CHECK(lan("g1f3", "Nf3") == "Ng1f3");
}

TEST_CASE("an imported game's tags and its plain movetext are to_pgn's whole text",
          "[match][pgn]") {
  // What an import stores for a game whose moves carry nothing but the move: the tags, the
  // movetext written from the moves when it is read (db/records plain_movetext).
  struct Case {
    const char* movetext;
    const char* fen;  // "" for the initial position
    int book;         // the first moves marked {book}
    const char* reason;
    Result result;
    Termination termination;
  };
  const Case cases[] = {
      {"e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#", "", 2, "White mates", Result::WhiteWins,
       Termination::Checkmate},
      {"c5 Nf3 d6 d4 cxd4 Nxd4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 0,
       "", Result::BlackWins, Termination::None},
      {"", "", 0, "Draw by adjudication", Result::Draw, Termination::AdjudicationDraw},
      {"d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 h6 Bh4 b6 cxd5 Nxd5 Bxe7 Qxe7 Nxd5 exd5 Rc1 Be6 "
       "Qa4 c5 Qa3 Rc8 Bb5 a6 dxc5 bxc5 O-O Ra7 Be2 Nd7 Nd4 Qf8 Nxe6 fxe6 e4 d4 f4 Qe7 e5 Rb8",
       "", 6, "Draw by 3-fold repetition", Result::Draw, Termination::Repetition},
  };
  for (const Case& c : cases) {
    INFO(c.movetext);
    GameRecord r;
    r.white = "white \"one\"";
    r.black = "black";
    r.start_fen = c.fen;
    chess::Position pos = c.fen[0] ? *chess::Position::from_fen(c.fen) : chess::Position();
    std::istringstream words(c.movetext);
    for (std::string san; words >> san;) {
      auto move = chess::parse_san(pos, san);
      REQUIRE(move);
      MoveRecord m;
      m.move = *move;
      m.uci = chess::to_uci(*move);
      m.san = chess::to_san(pos, *move);
      m.book = static_cast<int>(r.moves.size()) < c.book;
      r.moves.push_back(m);
      pos.do_move(*move);
    }
    r.reason = c.reason;
    r.result = c.result;
    r.termination = c.termination;
    r.start_time = "2026-11-21T23:59:01Z";
    r.duration_ms = 61'000;
    r.opening_source = c.book ? "book.pgn:3" : "";
    for (const char* variant : {"", "fischerandom"}) {
      PgnHeader h;
      h.event = "imported";
      h.round = "7";
      h.variant = variant;
      h.white_time_control = h.black_time_control = "40/60";
      const std::string whole = to_pgn(r, h);
      CHECK(pgn_tags_text(r, h, r.moves.size()) + plain_movetext(r) == whole);
      CHECK(whole.find("[Round \"7\"]\n") != std::string::npos);
      CHECK(plain_movetext(r).find(result_token(r.result)) != std::string::npos);
    }
  }
}

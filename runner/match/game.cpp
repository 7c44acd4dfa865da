#include "runner/match/game.h"

#include <algorithm>

#include "engine/chess/notation.h"
#include "runner/match/game_pgn.h"
#include "runner/match/pv_check.h"
#include "runner/match/tablebase_adjudication.h"
#include "runner/match/time_control.h"

namespace knightly::runner {

using chess::Color;

const char* side_name(Color c) {
  return c == chess::White ? "White" : "Black";
}

Game::Game(const GameSetup& setup)
    : setup_(setup),
      clocks_{Clock(setup.limits[chess::White]), Clock(setup.limits[chess::Black])},
      draw_(setup.adjudication.draw),
      resign_(setup.adjudication.resign) {}

std::expected<Game, std::string> Game::create(const GameSetup& setup) {
  Game game(setup);
  if (!setup.start_fen.empty()) {
    auto pos = chess::Position::from_fen(setup.start_fen);
    if (!pos) {
      return std::unexpected("bad start FEN '" + setup.start_fen + "': " + pos.error().message);
    }
    game.pos_ = *pos;
    // Canonical text for the FEN tag; the initial position needs no tag at all (but a
    // Chess960 game names it, as cutechess does).
    std::string fen = game.pos_.fen();
    game.setup_.start_fen = fen == chess::Position::StartFen && !setup.chess960 ? "" : fen;
  } else if (setup.chess960) {
    game.setup_.start_fen = std::string(chess::Position::StartFen);
  }
  game.check_rules();  // a start position may already be over
  std::size_t count =
      setup.opening_moves.empty() ? setup.opening_uci.size() : setup.opening_moves.size();
  for (std::size_t i = 0; i < count && !game.finished(); ++i) {
    chess::Move m;
    if (setup.opening_moves.empty()) {
      auto parsed = chess::parse_uci(game.pos_, setup.opening_uci[i], game.legal_);
      if (!parsed) {
        return std::unexpected("opening move " + std::to_string(i + 1) + " '" +
                               setup.opening_uci[i] + "': " + parsed.error());
      }
      m = *parsed;
    } else {
      m = setup.opening_moves[i];
      if (!game.legal_.contains(m)) {
        return std::unexpected("opening move " + std::to_string(i + 1) + " '" + chess::to_uci(m) +
                               "' is not legal");
      }
    }
    MoveRecord rec;
    rec.book = true;
    Color mover = game.pos_.side_to_move();
    game.clocks_[mover].apply_book_move();
    rec.clock_left_ms = game.clocks_[mover].timed() ? game.clocks_[mover].remaining_ms() : -1;
    // Counts restart on book moves, as in cutechess.
    game.draw_.update(int(game.moves_.size()) + 1, std::nullopt, false);
    game.resign_.update(mover, std::nullopt);
    game.play(m, std::move(rec));
  }
  return game;
}

MoveRequest Game::next_command() const {
  return command(pos_.side_to_move());
}

std::optional<MoveRequest> Game::ponder_command(const std::string& predicted,
                                                std::vector<std::string>& moves) const {
  if (finished() || !chess::parse_uci(pos_, predicted, legal_)) return std::nullopt;
  moves = uci_moves_;
  moves.push_back(predicted);
  MoveRequest req = command(~pos_.side_to_move());
  req.moves = moves;
  req.position = nullptr;  // not the game's position
  return req;
}

MoveRequest Game::command(Color side) const {
  MoveRequest req;
  req.side = side;
  req.start_fen = setup_.start_fen;
  req.moves = uci_moves_;
  req.position = &pos_;
  const EngineLimits& limits = setup_.limits[side];
  const Clock& mine = clocks_[side];
  if (limits.tc && !limits.tc->infinite) req.time_control = &*limits.tc;
  req.chess960 = setup_.chess960;
  if (mine.fixed_per_move()) {
    req.movetime_ms = mine.movetime_ms();
  } else if (mine.timed()) {
    // Each side's own clock; an opponent without a clock is shown the mover's.
    const Clock& white = clocks_[chess::White].timed() ? clocks_[chess::White] : mine;
    const Clock& black = clocks_[chess::Black].timed() ? clocks_[chess::Black] : mine;
    req.wtime_ms = std::max<std::int64_t>(0, white.remaining_ms());
    req.btime_ms = std::max<std::int64_t>(0, black.remaining_ms());
    if (white.increment_ms() > 0) req.winc_ms = white.increment_ms();
    if (black.increment_ms() > 0) req.binc_ms = black.increment_ms();
    req.movestogo = mine.moves_to_go();
  }
  req.depth = limits.depth;
  req.nodes = limits.nodes;
  if (!mine.timed() && !req.depth && !req.nodes) req.infinite = true;
  req.budget_ms = mine.budget_ms();
  return req;
}

void Game::end(Result result, Termination termination, std::string reason) {
  result_ = result;
  termination_ = termination;
  reason_ = std::move(reason);
}

void Game::forfeit(Color side, Termination why, const std::string& detail) {
  if (finished()) return;
  Result win = side == chess::White ? Result::BlackWins : Result::WhiteWins;
  std::string who = side_name(side);
  switch (why) {
    case Termination::Disconnect:
      end(win, why, who + " disconnects" + (detail.empty() ? "" : ": " + detail));
      break;
    case Termination::Stall:
      end(win, why, who + "'s connection stalls" + (detail.empty() ? "" : ": " + detail));
      break;
    case Termination::TimeForfeit:
      end(win, why, who + " loses on time");
      break;
    case Termination::IllegalMove:
      end(win, why, who + " makes an illegal move" + (detail.empty() ? "" : ": " + detail));
      break;
    default:
      end(win, why, who + " forfeits" + (detail.empty() ? "" : ": " + detail));
      break;
  }
}

void Game::interrupt() {
  if (finished()) return;
  end(Result::None, Termination::Interrupted, "No result");
}

void Game::play(chess::Move m, MoveRecord rec) {
  rec.move = m;
  rec.uci = chess::to_uci(m, setup_.chess960);
  rec.san = chess::to_san_unmarked(pos_, m, legal_);
  pos_.do_move(m);
  uci_moves_.push_back(rec.uci);
  moves_.push_back(std::move(rec));
  check_rules();
  // The check or mate mark, from the legal moves of the new position found just now.
  if (pos_.in_check()) moves_.back().san += legal_.empty() ? '#' : '+';
}

void Game::check_rules() {
  legal_ = pos_.legal_moves();
  if (auto over = rules_end(pos_.game_end(legal_), pos_.side_to_move()))
    end(over->result, over->termination, std::move(over->reason));
}

std::optional<RulesEnd> rules_end(chess::GameEnd end, Color side_to_move) {
  switch (end) {
    case chess::GameEnd::None:
      return std::nullopt;
    case chess::GameEnd::Checkmate: {
      const Color winner = ~side_to_move;
      return RulesEnd{winner == chess::White ? Result::WhiteWins : Result::BlackWins,
                      Termination::Checkmate, std::string(side_name(winner)) + " mates"};
    }
    case chess::GameEnd::Stalemate:
      return RulesEnd{Result::Draw, Termination::Stalemate, "Draw by stalemate"};
    case chess::GameEnd::ThreefoldRepetition:
      return RulesEnd{Result::Draw, Termination::Repetition, "Draw by 3-fold repetition"};
    case chess::GameEnd::FiftyMoveRule:
      return RulesEnd{Result::Draw, Termination::FiftyMoves, "Draw by fifty moves rule"};
    case chess::GameEnd::InsufficientMaterial:
      return RulesEnd{Result::Draw, Termination::InsufficientMaterial,
                      "Draw by insufficient mating material"};
  }
  return std::nullopt;
}

void Game::check_adjudication(Color mover, const MoveEval& eval, bool irreversible) {
  if (setup_.tablebase) {
    if (auto by_tables =
            tablebase_adjudicate(pos_, setup_.adjudication.tablebase, *setup_.tablebase)) {
      end(by_tables->result, by_tables->termination, by_tables->reason);
      return;
    }
  }
  // cutechess judges only real search results (depth > 0).
  std::optional<int> score = eval.depth > 0 ? comparable_score(eval) : std::nullopt;
  draw_.update(int(moves_.size()), score, irreversible);
  if (draw_.adjudicated()) {
    end(Result::Draw, Termination::AdjudicationDraw, "Draw by adjudication");
    return;
  }
  resign_.update(mover, score);
  if (auto loser = resign_.loser()) {
    Color winner = ~*loser;
    end(winner == chess::White ? Result::WhiteWins : Result::BlackWins,
        Termination::AdjudicationResign, std::string(side_name(winner)) + " wins by adjudication");
    return;
  }
  int max_moves = setup_.adjudication.max_moves;
  if (max_moves > 0 && int(moves_.size()) >= 2 * max_moves) {
    end(Result::Draw, Termination::MaxMoves, "Draw by adjudication");
  }
}

void Game::on_reply(const MoveReply& reply) {
  if (finished()) return;
  Color side = pos_.side_to_move();
  Clock& clock = clocks_[side];
  const std::int64_t elapsed = reply.elapsed_ms;
  switch (reply.status) {
    case MoveReply::Status::Disconnected:
      forfeit(side, Termination::Disconnect);
      return;
    case MoveReply::Status::Stalled:
      // No bestmove at all: past the clock it is a loss on time, otherwise a stall.
      if (clock.timed() && !clock.apply(elapsed)) {
        forfeit(side, Termination::TimeForfeit);
      } else {
        forfeit(side, Termination::Stall);
      }
      return;
    case MoveReply::Status::Refused:
      forfeit(side, Termination::Disconnect, reply.detail);
      return;
    case MoveReply::Status::Move:
      break;
  }
  if (!clock.apply(elapsed)) {
    forfeit(side, Termination::TimeForfeit);
    return;
  }
  // A result claim without a move is judged in this position, one with a move after it.
  if (reply.claim != MoveReply::Claim::None && reply.bestmove.empty()) {
    judge_claim(side, reply);
    return;
  }
  auto move = chess::parse_uci(pos_, reply.bestmove, legal_);
  if (!move) {
    forfeit(side, Termination::IllegalMove, reply.bestmove);
    return;
  }
  MoveRecord rec;
  rec.eval = reply.eval;
  rec.time_ms = elapsed;
  if (reply.eval.engine_time_ms)
    rec.latency_ms =
        (reply.since_go_ms >= 0 ? reply.since_go_ms : elapsed) - *reply.eval.engine_time_ms;
  if (setup_.match_line) {
    for (auto it = reply.info_strings.rbegin(); it != reply.info_strings.rend(); ++it) {
      std::string line = "info string " + *it;
      if (std::regex_search(line, *setup_.match_line)) {
        rec.lines.push_back(std::move(line));
        break;
      }
    }
  }
  // The PV of a UCI engine's line (an xboard engine's PV is free text: not checked).
  if (setup_.check_mate_pvs && !reply.info_line.empty()) {
    if (auto w = check_pv(pos_, reply.eval, reply.bound, name(side))) {
      std::string moves;
      for (const std::string& m : uci_moves_) moves += (moves.empty() ? "" : " ") + m;
      warnings_.push_back(pv_warning_text(*w, reply.info_line, setup_.start_fen, moves));
    }
  }
  rec.clock_left_ms = clock.timed() ? clock.remaining_ms() : -1;
  play(*move, std::move(rec));
  if (!finished() && reply.claim != MoveReply::Claim::None) judge_claim(side, reply);
  if (!finished()) check_adjudication(side, reply.eval, pos_.halfmove_clock() == 0);
}

void Game::judge_claim(Color side, const MoveReply& reply) {
  // A game the rules ended already needs no claim (cutechess ignores it then); otherwise a
  // claim of one's own loss is a resignation and any other claim is false and loses.
  if (finished()) return;
  const Result win = side == chess::White ? Result::BlackWins : Result::WhiteWins;
  const std::string who = side_name(side);
  const std::string text = reply.claim_text.empty() ? "" : ": " + reply.claim_text;
  switch (reply.claim) {
    case MoveReply::Claim::None:
      return;
    case MoveReply::Claim::Resign:
      end(win, Termination::Resignation, who + " resigns");
      return;
    case MoveReply::Claim::Draw:
      end(win, Termination::FalseClaim, who + " forfeits by invalid draw claim" + text);
      return;
    case MoveReply::Claim::Win:
      end(win, Termination::FalseClaim, who + " forfeits by invalid victory claim" + text);
      return;
  }
}

GameRecord Game::record(const GameInfo& info) const {
  GameRecord rec;
  rec.id = setup_.id;
  rec.white = setup_.white;
  rec.black = setup_.black;
  rec.start_fen = setup_.start_fen;
  rec.moves = moves_;
  rec.opening_source = setup_.opening_source;
  rec.result = result_;
  rec.termination = termination_;
  rec.reason = reason_;
  rec.start_time = info.start_time;
  rec.duration_ms = info.duration_ms;
  const PgnHeader header = pgn_header(info);
  const std::string& wtc = header.white_time_control;
  const std::string& btc = header.black_time_control;
  rec.time_control = wtc == btc ? wtc : wtc + " / " + btc;
  rec.pgn = to_pgn(rec, header);
  return rec;
}

PgnHeader Game::pgn_header(const GameInfo& info) const {
  PgnHeader header;
  header.event = info.event;
  header.site = info.site;
  header.round = info.round.empty() ? std::to_string(setup_.id.round + 1) : info.round;
  if (setup_.chess960) header.variant = "fischerandom";
  header.white_time_control = pgn_time_control(setup_.limits[chess::White]);
  header.black_time_control = pgn_time_control(setup_.limits[chess::Black]);
  return header;
}

}  // namespace knightly::runner

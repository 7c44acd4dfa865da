// A small xboard (CECP 2) engine for the runner's tests: keeps the game through the chess core,
// plays a legal move (the first one, or a seeded random one) and misbehaves on request.
//
//   --log FILE          append every line it reads to FILE (what the runner sent)
//   --name NAME         feature myname (default mock-xboard)
//   --san               feature san=1: moves told and played in SAN
//   --no-usermove       feature usermove=0: moves come as bare words
//   --no-setboard       feature setboard=0 (the position then comes by `edit`, which the mock
//                       reads as xboard defines it: castling where kings and rooks stand)
//   --no-ping           feature ping=0
//   --variants LIST     feature variants (default "normal")
//   --no-features       no feature line at all (a protocol 1 engine: the runner waits 2 s)
//   --done-zero         feature done=0 and never done=1
//   --slow-done MS      feature done=0, then done=1 after MS
//   --no-pong           never answer `ping`
//   --pong-count N      answer only the first N `ping`s
//   --illegal-move      answer a well-formed move that is not legal
//   --crash-on-go N     exit(3) on the Nth move it is asked for (after one thinking line)
//   --stall-after-go    after the first `go`, never answer anything again
//   --garbage           garbage lines before the features and with every move
//   --reject-moves      answer "Illegal move: MOVE" to every move it is told (and ignore it)
//   --false-claim       on `go`, claim a win for its own side instead of moving
//   --resign-on-go N    resign instead of its Nth move of a game
//   --draw-claim        on `go`, claim a draw and then make an ordinary move
//   --mate-claim        play a mate in one when there is one, and claim the win after it
//   --seed N            play a random legal move from an LCG seeded with N
//   --delay MS          think MS before each move
#include <cctype>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "tests/engines/mock/mock_common.h"

namespace {

using namespace knightly;
using mock::out;
using mock::sleep_ms;

struct Flags {
  std::string log;
  std::string name = "mock-xboard";
  bool san = false;
  bool usermove = true;
  bool setboard = true;
  bool ping = true;
  std::string variants = "normal";
  bool no_features = false;
  bool done_zero = false;
  int slow_done_ms = -1;
  bool no_pong = false;
  int pong_count = -1;  // -1 = every ping
  bool illegal_move = false;
  int crash_on_go = 0;
  bool stall_after_go = false;
  bool garbage = false;
  bool reject_moves = false;
  bool false_claim = false;
  int resign_on_go = 0;
  bool draw_claim = false;
  bool mate_claim = false;
  std::uint64_t seed = 0;
  int delay_ms = 0;
};

Flags parse_flags(int argc, char** argv) {
  Flags f;
  mock::FlagParser("mock-xboard")
      .value("--log", f.log)
      .value("--name", f.name)
      .flag("--san", f.san)
      .flag("--no-usermove", f.usermove, false)
      .flag("--no-setboard", f.setboard, false)
      .flag("--no-ping", f.ping, false)
      .value("--variants", f.variants)
      .flag("--no-features", f.no_features)
      .flag("--done-zero", f.done_zero)
      .value("--slow-done", f.slow_done_ms)
      .flag("--no-pong", f.no_pong)
      .value("--pong-count", f.pong_count)
      .flag("--illegal-move", f.illegal_move)
      .value("--crash-on-go", f.crash_on_go)
      .flag("--stall-after-go", f.stall_after_go)
      .flag("--garbage", f.garbage)
      .flag("--reject-moves", f.reject_moves)
      .flag("--false-claim", f.false_claim)
      .value("--resign-on-go", f.resign_on_go)
      .flag("--draw-claim", f.draw_claim)
      .flag("--mate-claim", f.mate_claim)
      .value("--seed", f.seed)
      .value("--delay", f.delay_ms)
      .parse(argc, argv);
  return f;
}

class Engine {
 public:
  explicit Engine(Flags f) : f_(std::move(f)), rng_{f_.seed} {
    if (!f_.log.empty()) log_.open(f_.log, std::ios::app);
  }

  // Returns false at `quit`.
  bool command(const std::string& line) {
    if (log_) log_ << line << std::endl;
    if (stalled_) return true;
    if (editing_) {
      edit_line(line);
      return true;
    }
    const std::string word = line.substr(0, line.find(' '));
    const std::string arg = line.size() > word.size() ? line.substr(word.size() + 1) : "";
    if (word == "quit") return false;
    if (word == "protover") {
      features();
    } else if (word == "new") {
      pos_ = chess::Position();
      force_ = false;
      chess960_ = false;
      engine_side_ = chess::Black;
      game_moves_ = 0;
    } else if (word == "variant") {
      chess960_ = arg == "fischerandom";
    } else if (word == "force") {
      force_ = true;
    } else if (word == "setboard") {
      auto p = chess::Position::from_fen(arg);
      if (!p) {
        out("tellusererror Illegal position");
      } else {
        pos_ = *p;
      }
    } else if (word == "edit") {
      editing_ = true;
      edit_white_ = true;
      board_ = std::string(64, '.');
      for (int s = 0; s < 64; ++s) {
        const chess::Piece p = pos_.piece_on(chess::Square(s));
        if (p != chess::NoPiece)
          board_[std::size_t(s)] = "PNBRQKpnbrqk"[chess::color_of(p) * 6 + chess::type_of(p)];
      }
    } else if (word == "ping") {
      ++pings_;
      if (!f_.no_pong && (f_.pong_count < 0 || pings_ <= f_.pong_count)) out("pong " + arg);
    } else if (word == "go") {
      force_ = false;
      engine_side_ = pos_.side_to_move();
      think();
    } else if (word == "usermove") {
      user_move(arg);
    } else if (word == "?" || word == "xboard" || word == "accepted" || word == "rejected" ||
               word == "level" || word == "st" || word == "sd" || word == "time" ||
               word == "otim" || word == "post" || word == "nopost" || word == "easy" ||
               word == "hard" || word == "result" || word == "computer" || word == "random" ||
               word == "option" || word == "name" || word == "white" || word == "black") {
      // Nothing to do for the mock (the log shows what was sent).
    } else if (!f_.usermove) {
      user_move(line);
    } else {
      out("Error (unknown command): " + line);
    }
    return true;
  }

 private:
  // One line of edit mode: `#` clears, `c` switches colour, `.` ends (the position is then
  // the board with the side to move kept), "Pe2" puts a piece, "xe2" empties a square.
  void edit_line(const std::string& line) {
    if (line == "#") {
      board_ = std::string(64, '.');
    } else if (line == "c") {
      edit_white_ = !edit_white_;
    } else if (line == ".") {
      editing_ = false;
      std::string fen;
      for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
          const char c = board_[std::size_t(rank * 8 + file)];
          if (c == '.') {
            ++empty;
            continue;
          }
          if (empty) fen += char('0' + empty);
          empty = 0;
          fen += c;
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
      }
      fen += pos_.side_to_move() == chess::White ? " w " : " b ";
      std::string castling;
      if (board_[4] == 'K' && board_[7] == 'R') castling += 'K';
      if (board_[4] == 'K' && board_[0] == 'R') castling += 'Q';
      if (board_[60] == 'k' && board_[63] == 'r') castling += 'k';
      if (board_[60] == 'k' && board_[56] == 'r') castling += 'q';
      fen += (castling.empty() ? "-" : castling) + " - 0 1";
      if (auto p = chess::Position::from_fen(fen)) {
        pos_ = *p;
      } else {
        out("tellusererror Illegal position");
      }
    } else if (line.size() == 3) {
      const int file = line[1] - 'a', rank = line[2] - '1';
      const std::string pieces = "PNBRQKX";
      const std::size_t kind = pieces.find(char(std::toupper(line[0])));
      if (file < 0 || file > 7 || rank < 0 || rank > 7 || kind == std::string::npos) return;
      char c = kind == 6 ? '.' : pieces[kind];
      if (!edit_white_ && c != '.') c = char(std::tolower(c));
      board_[std::size_t(rank * 8 + file)] = c;
    }
  }

  void features() {
    if (f_.garbage) {
      out("this is no feature line");
      out("feature");
    }
    if (f_.no_features) return;
    std::string fl = "feature myname=\"" + f_.name + "\" variants=\"" + f_.variants + "\"";
    fl += std::string(" ping=") + (f_.ping ? "1" : "0");
    fl += std::string(" setboard=") + (f_.setboard ? "1" : "0");
    fl += std::string(" usermove=") + (f_.usermove ? "1" : "0");
    fl += std::string(" san=") + (f_.san ? "1" : "0");
    fl += " sigint=0 sigterm=0 colors=0 option=\"Depth -spin 3 1 20\"";
    if (f_.done_zero || f_.slow_done_ms >= 0) {
      out("feature done=0");
      out(fl);
      if (f_.done_zero) return;
      sleep_ms(f_.slow_done_ms);
      out("feature done=1");
      return;
    }
    out(fl + " done=1");
  }

  void user_move(const std::string& text) {
    auto m = chess::parse_uci(pos_, text);
    if (!m) m = chess::parse_san(pos_, text);
    if (!m || f_.reject_moves) {
      out("Illegal move: " + text);
      return;
    }
    pos_.do_move(*m);
    if (!force_ && pos_.side_to_move() == engine_side_) think();
  }

  std::string text_of(chess::Move m) const {
    if (f_.san) return chess::to_san(pos_, m);
    if (chess960_ && m.kind() == chess::Move::Castling) {
      std::string s = chess::to_san(pos_, m);
      while (!s.empty() && (s.back() == '+' || s.back() == '#')) s.pop_back();
      return s;
    }
    return chess::to_uci(m, chess960_);
  }

  void think() {
    ++gos_;
    ++game_moves_;
    if (f_.garbage) out("garbage before the move \x01\x02");
    out("1 15 0 100 thinking");
    if (f_.crash_on_go > 0 && gos_ == f_.crash_on_go) std::_Exit(3);
    if (f_.stall_after_go) {
      stalled_ = true;
      return;
    }
    if (f_.delay_ms > 0) sleep_ms(f_.delay_ms);
    const char* own_win = pos_.side_to_move() == chess::White ? "1-0" : "0-1";
    if (f_.false_claim) {
      out(std::string(own_win) + " {claiming a win}");
      return;
    }
    if (f_.resign_on_go > 0 && game_moves_ == f_.resign_on_go) {
      out("resign");
      return;
    }
    if (f_.draw_claim) out("1/2-1/2 {claiming a draw}");
    if (f_.illegal_move) {
      out("move e2e5");
      return;
    }
    chess::MoveList legal = pos_.legal_moves();
    std::optional<chess::Move> picked = mock::pick_move(legal, f_.seed, rng_);
    if (!picked) return;
    chess::Move m = *picked;
    if (f_.mate_claim) {
      for (chess::Move candidate : legal) {
        pos_.do_move(candidate);
        const bool mates = pos_.game_end(pos_.legal_moves()) == chess::GameEnd::Checkmate;
        pos_.undo_move();
        if (mates) m = candidate;
      }
    }
    out("2 " + std::to_string(10 + gos_) + " 1 " + std::to_string(1000 * gos_) + " " +
        chess::to_uci(m));
    out("move " + text_of(m));
    pos_.do_move(m);
    if (f_.mate_claim && pos_.game_end(pos_.legal_moves()) == chess::GameEnd::Checkmate)
      out(std::string(own_win) + " {" + (*own_win == '1' ? "White" : "Black") + " mates}");
    if (f_.garbage) out("more garbage after the move");
  }

  Flags f_;
  mock::Lcg rng_;
  std::ofstream log_;
  chess::Position pos_;
  bool editing_ = false;  // between `edit` and `.`
  bool edit_white_ = true;
  std::string board_;  // edit mode's board, a1..h8, FEN letters, '.' empty
  bool force_ = false;
  bool chess960_ = false;
  chess::Color engine_side_ = chess::Black;
  int gos_ = 0;         // moves asked for, in this process
  int game_moves_ = 0;  // moves asked for, in this game
  int pings_ = 0;
  bool stalled_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  Engine engine(parse_flags(argc, argv));
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!engine.command(line)) break;
  }
  return 0;
}

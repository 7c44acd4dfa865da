#include "runner/players/xboard_player.h"

#include <algorithm>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "runner/players/engine_connection.h"
#include "runner/players/first_go.h"

namespace knightly::runner {
namespace {

using Clock = std::chrono::steady_clock;
using Wait = EngineConnection::Wait;

// CECP 2: an engine that sends no `feature done=...` gets 2 s after `protover 2` (xboard's own
// wait for protocol 1 engines); one that sent done=0 gets the whole startup timeout.
constexpr std::chrono::milliseconds FeatureWait{2000};
// After a draw claim made before its move, how long the engine has to make that move.
constexpr std::chrono::milliseconds DrawClaimGrace{1000};

std::string ms_text(std::chrono::milliseconds ms) {
  return std::to_string(ms.count()) + " ms";
}

bool is_standard_start(std::string_view fen) {
  return fen.empty() || fen == "startpos" || fen == chess::Position::StartFen;
}

// A claim from the claimant's side.
MoveReply::Claim relative_claim(const xboard::Claim& c, chess::Color side) {
  switch (c.kind) {
    case xboard::Claim::Kind::Resign:
      return MoveReply::Claim::Resign;
    case xboard::Claim::Kind::Draw:
      return MoveReply::Claim::Draw;
    case xboard::Claim::Kind::WhiteWins:
      return side == chess::White ? MoveReply::Claim::Win : MoveReply::Claim::Resign;
    case xboard::Claim::Kind::BlackWins:
      return side == chess::Black ? MoveReply::Claim::Win : MoveReply::Claim::Resign;
  }
  return MoveReply::Claim::None;
}

}  // namespace

struct XboardPlayer::Impl {
  EngineConfig config;
  PlayerOptions options;
  EngineConnection conn;
  std::string wbuf;

  xboard::Features features;
  std::int64_t last_ping = 0;

  // The game the engine knows: set up (variant, start position, time control) or not, its
  // start position and the moves it was told or played, and the position they lead to.
  bool set_up = false;
  bool fresh = false;  // `new` sent and nothing since: the game needs no other `new`
  std::string start_fen;
  std::vector<std::string> known;
  chess::Position pos;
  bool warned_nodes = false;

  Impl(EngineConfig c, PlayerOptions o)
      : config(std::move(c)), options(std::move(o)), conn(config, options) {}

  void warn(std::string text) { conn.warn(std::move(text)); }
  void note_garbage(std::string_view line, std::string_view why) { conn.note_garbage(line, why); }
  Clock::time_point arm(std::chrono::milliseconds d) { return conn.arm(d); }
  Wait next_line(std::string_view& line) { return conn.next_line(line); }
  Wait write_all() { return conn.write(wbuf); }
  std::string exit_detail(const char* what) { return conn.exit_detail(what); }

  void kill_process() {
    conn.kill();
    set_up = false;
    fresh = false;
  }

  // `feature` lines: each feature is answered `accepted` or `rejected` at once, as CECP asks.
  Wait on_features(std::string_view line) {
    auto parsed = xboard::parse_features(line);
    if (!parsed) {
      note_garbage(line, parsed.error());
      return Wait::Line;
    }
    wbuf.clear();
    for (const xboard::Feature& f : *parsed) {
      wbuf += xboard::apply_feature(features, f) ? "accepted " : "rejected ";
      wbuf += f.name;
      wbuf += '\n';
    }
    return write_all();
  }

  // Lines any state may see: late features, diagnostics, chatter.
  void on_other(std::string_view line, xboard::LineKind kind) {
    switch (kind) {
      case xboard::LineKind::Feature:
        on_features(line);
        break;
      case xboard::LineKind::IllegalMove:
        // The engine refused a move we sent: its board may no longer be ours.
        warn(config.name + ": the engine answered '" + std::string(line.substr(0, 200)) + "'");
        break;
      case xboard::LineKind::Error:
        // Many engines say "Error (unknown command): ..." to words they do not know
        // (`accepted`, `easy`...): logged, not worth a warning.
        note_garbage(line, "engine error");
        break;
      case xboard::LineKind::Unknown:
        note_garbage(line, "not a CECP command");
        break;
      default:
        break;  // chatter; a stray pong, thinking or move after a game: harmless
    }
  }

  // Sends `ping N` and waits for `pong N` (earlier pongs are stale); without the ping
  // feature there is nothing to wait for.
  Wait ping() {
    if (!features.ping) return Wait::Line;
    ++last_ping;
    wbuf = "ping " + std::to_string(last_ping) + "\n";
    Wait w = write_all();
    std::string_view line;
    while (w == Wait::Line) {
      w = next_line(line);
      if (w != Wait::Line) break;
      const xboard::LineKind kind = xboard::classify(line);
      if (kind == xboard::LineKind::Pong) {
        auto n = xboard::parse_pong(line);
        if (n && *n == last_ping) return Wait::Line;
        if (!n) note_garbage(line, n.error());
      } else {
        on_other(line, kind);
      }
    }
    return w;
  }

  std::optional<std::string> start() {
    kill_process();
    features = {};
    last_ping = 0;
    if (auto e = conn.start()) return e;

    const auto startup_end = Clock::now() + options.startup_timeout;
    const auto quiet_end = Clock::now() + std::min(FeatureWait, options.startup_timeout);
    conn.set_deadline(startup_end);
    wbuf = "xboard\nprotover 2\n";
    Wait w = write_all();
    std::string_view line;
    while (w == Wait::Line && features.done != true) {
      // done=0 asks for all the time it needs (up to the startup timeout); otherwise the
      // features have 2 s, after which the engine counts as a protocol 1 engine.
      conn.set_deadline(features.done == false ? startup_end : quiet_end);
      w = next_line(line);
      if (w != Wait::Line) break;
      const xboard::LineKind kind = xboard::classify(line);
      if (kind == xboard::LineKind::Feature) {
        w = on_features(line);
      } else if (kind == xboard::LineKind::Unknown) {
        note_garbage(line, "before feature done=1");
      } else {
        on_other(line, kind);
      }
    }
    if (w == Wait::Eof) {
      std::string why = exit_detail("engine exited during the xboard handshake");
      kill_process();
      return config.name + ": " + why;
    }
    if (w == Wait::Timeout && features.done == false) {
      kill_process();
      return config.name + ": sent feature done=0 and no done=1 within " +
             ms_text(options.startup_timeout);
    }
    if (options.chess960 && !features.supports_variant("fischerandom")) {
      kill_process();
      return config.name +
             ": the engine does not offer variant fischerandom (its variants: " + join_variants() +
             "), so it cannot play Chess960";
    }
    wbuf.clear();
    for (const auto& [oname, value] : config.options) {
      if (!features.has_option(oname))
        warn(config.name + ": the engine does not list option '" + oname + "' (sent anyway)");
      wbuf += "option " + oname + "=" + value + "\n";
    }
    arm(options.ready_timeout);
    w = wbuf.empty() ? Wait::Line : write_all();
    if (w == Wait::Line) w = ping();
    if (w != Wait::Line) {
      std::string why = w == Wait::Timeout ? "no pong " + std::to_string(last_ping) + " within " +
                                                 ms_text(options.ready_timeout)
                                           : exit_detail("engine exited after the features");
      kill_process();
      return config.name + ": " + why;
    }
    return std::nullopt;
  }

  std::string join_variants() const {
    std::string out;
    for (const std::string& v : features.variants) out += (out.empty() ? "" : ",") + v;
    return out.empty() ? "none" : out;
  }

  bool new_game(std::chrono::milliseconds timeout) {
    if (!conn.started()) return false;
    arm(timeout);
    wbuf = "new\nforce\n";
    set_up = false;
    fresh = true;
    Wait w = write_all();
    if (w == Wait::Line) w = ping();
    if (w == Wait::Timeout)
      warn(config.name + ": no pong " + std::to_string(last_ping) + " within " + ms_text(timeout));
    return w == Wait::Line;
  }

  // Whether the engine's game is `cmd`'s so far: the same start and a prefix of its moves.
  bool knows(const MoveRequest& cmd) const {
    if (!set_up || cmd.start_fen != start_fen || known.size() > cmd.moves.size()) return false;
    return std::equal(known.begin(), known.end(), cmd.moves.begin());
  }

  // `new`, variant, start position and limits: the game from its start. An error is a reason
  // the engine cannot play this game.
  std::optional<std::string> set_up_game(const MoveRequest& cmd) {
    if (!fresh) wbuf += "new\n";  // the engine's board is not the initial one of a `new`
    fresh = false;
    if (cmd.chess960) {
      if (!features.supports_variant("fischerandom"))
        return "the engine does not offer variant fischerandom (its variants: " + join_variants() +
               ")";
      wbuf += "variant fischerandom\n";
    }
    wbuf += "force\n";
    if (cmd.chess960 || !is_standard_start(cmd.start_fen)) {
      const std::string_view fen =
          is_standard_start(cmd.start_fen) ? chess::Position::StartFen : cmd.start_fen;
      // Chess960 castling cannot be told by edit, which leaves castling to where the
      // kings and rooks stand.
      if (!features.setboard && cmd.chess960)
        return "a Chess960 game starts from a FEN (" + std::string(fen) +
               ") and the engine has no feature setboard=1";
      auto p = chess::Position::from_fen(fen);
      if (!p) return "bad start position '" + std::string(fen) + "'";
      pos = *p;
      if (features.setboard) {
        wbuf += "setboard ";
        wbuf += pos.fen(chess::CastlingNotation::XFen);  // X-FEN: xboard's own
        wbuf += '\n';
      } else {
        wbuf += xboard::edit_commands(pos, features.usermove);  // as cutechess does
      }
    } else {
      pos = chess::Position();
    }
    if (const TimeControl* tc = cmd.time_control) {
      wbuf +=
          tc->movetime_ms > 0 ? xboard::st_command(tc->movetime_ms) : xboard::level_command(*tc);
      wbuf += '\n';
    }
    if (cmd.depth) wbuf += "sd " + std::to_string(*cmd.depth) + "\n";
    if (cmd.nodes && !warned_nodes) {
      warned_nodes = true;
      warn(config.name +
           ": CECP has no node limit; the engine is not told nodes=" + std::to_string(*cmd.nodes));
    }
    // Thinking output for the evaluations; no pondering.
    wbuf += "post\neasy\n";
    start_fen = std::string(cmd.start_fen);
    known.clear();
    set_up = true;
    return std::nullopt;
  }

  MoveReply refuse(std::string why) {
    MoveReply reply;
    reply.status = MoveReply::Status::Refused;
    reply.detail = why;
    conn.note("refused:", why);
    set_up = false;
    return reply;
  }

  MoveReply go(const MoveRequest& cmd, std::chrono::milliseconds move_deadline) {
    MoveReply reply;
    if (!conn.started()) {
      reply.status = MoveReply::Status::Disconnected;
      reply.detail = "engine not running";
      return reply;
    }
    wbuf.clear();
    if (!knows(cmd)) {
      if (auto why = set_up_game(cmd)) return refuse(*why);
    } else {
      wbuf += "force\n";
    }
    for (std::size_t i = known.size(); i < cmd.moves.size(); ++i) {
      auto m = chess::parse_uci(pos, cmd.moves[i]);
      if (!m) return refuse("move " + std::to_string(i + 1) + ": " + m.error());
      if (features.usermove) wbuf += "usermove ";
      wbuf += xboard::move_text(pos, *m, features.san, cmd.chess960);
      wbuf += '\n';
      pos.do_move(*m);
      known.push_back(cmd.moves[i]);
    }
    if (features.time && cmd.time_control && cmd.time_control->movetime_ms == 0) {
      const auto& mine = cmd.side == chess::White ? cmd.wtime_ms : cmd.btime_ms;
      const auto& theirs = cmd.side == chess::White ? cmd.btime_ms : cmd.wtime_ms;
      if (mine) wbuf += "time " + std::to_string(xboard::centiseconds(*mine)) + "\n";
      if (theirs) wbuf += "otim " + std::to_string(xboard::centiseconds(*theirs)) + "\n";
    }
    wbuf += "go\n";

    // The engine's time runs from just before `go` is written, the instant its deadline counts
    // from: it is never charged less than it thought (the pipe may deliver `go` before the
    // write returns).
    const Clock::time_point t0 = arm(move_deadline);
    Wait w = write_all();
    if (w == Wait::Line) note_go();
    std::string_view line;
    bool have_eval = false;
    while (w == Wait::Line) {
      w = next_line(line);
      if (w != Wait::Line) break;
      const xboard::LineKind kind = xboard::classify(line);
      if (kind == xboard::LineKind::Thinking) {
        if (auto t = xboard::parse_thinking(line)) {
          reply.eval = t->eval;
          // The PV as the engine wrote it (SAN or coordinates, maybe with move numbers).
          std::string_view pv = t->pv;
          while (!pv.empty() && (pv.back() == ' ' || pv.back() == '\t' || pv.back() == '\r'))
            pv.remove_suffix(1);
          while (!pv.empty() && (pv.front() == ' ' || pv.front() == '\t')) pv.remove_prefix(1);
          reply.eval.pv.assign(pv);
          have_eval = true;
        } else {
          note_garbage(line, t.error());
        }
      } else if (kind == xboard::LineKind::Move) {
        reply.elapsed_ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
        reply.status = MoveReply::Status::Move;
        auto text = xboard::parse_move(line);
        if (!text) {
          reply.detail = text.error();  // no move text: the match judges it illegal
          return reply;
        }
        if (auto m = xboard::parse_engine_move(pos, *text)) {
          reply.bestmove = chess::to_uci(*m, cmd.chess960);
          pos.do_move(*m);
          known.push_back(reply.bestmove);
        } else {
          reply.bestmove = *text;  // the match judges it illegal, naming the engine's text
          reply.detail = m.error();
          set_up = false;
        }
        if (!have_eval) reply.eval = {};
        take_claim_after_move(reply, cmd.side);
        return reply;
      } else if (kind == xboard::LineKind::Claim) {
        auto claim = xboard::parse_claim(line);
        if (!claim) {
          note_garbage(line, claim.error());
          continue;
        }
        reply.claim = relative_claim(*claim, cmd.side);
        reply.claim_text = claim->text;
        if (reply.claim != MoveReply::Claim::Draw) {
          // A resignation or a victory claim instead of a move: the match judges it here.
          reply.elapsed_ms =
              std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
          reply.status = MoveReply::Status::Move;
          set_up = false;
          return reply;
        }
        // "My next move draws": the move should follow at once.
        conn.set_deadline(std::min(conn.deadline(), Clock::now() + DrawClaimGrace));
      } else {
        on_other(line, kind);
      }
    }
    reply.elapsed_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
    if (w == Wait::Timeout && reply.claim == MoveReply::Claim::Draw) {
      // A draw claim and no move: judged in this position.
      reply.status = MoveReply::Status::Move;
      set_up = false;
      return reply;
    }
    set_up = false;
    if (w == Wait::Timeout) {
      reply.status = MoveReply::Status::Stalled;
      reply.detail = "no move within " + ms_text(move_deadline);
    } else {
      reply.status = MoveReply::Status::Disconnected;
      reply.detail = exit_detail("engine disconnected");
    }
    conn.note("fault:", reply.detail);
    return reply;
  }

  // A claim the engine wrote together with its move ("move d8h4" + "0-1 {Black mates}") is
  // already in the buffer: it is taken without waiting for more.
  void take_claim_after_move(MoveReply& reply, chess::Color side) {
    if (reply.claim != MoveReply::Claim::None) return;
    conn.set_deadline(Clock::now());
    std::string_view line;
    while (next_line(line) == Wait::Line) {
      const xboard::LineKind kind = xboard::classify(line);
      if (kind == xboard::LineKind::Claim) {
        if (auto claim = xboard::parse_claim(line)) {
          reply.claim = relative_claim(*claim, side);
          reply.claim_text = claim->text;
          return;
        }
      } else if (kind != xboard::LineKind::Thinking) {
        on_other(line, kind);
      }
    }
  }

  void end_game(const std::string& result) {
    set_up = false;
    if (!conn.started()) return;
    arm(options.quit_timeout);
    wbuf = "force\nresult " + result + "\n";
    write_all();
  }

  void quit() {
    conn.quit("quit\n", options.quit_timeout);
    set_up = false;
    fresh = false;
  }
};

XboardPlayer::XboardPlayer(EngineConfig config, PlayerOptions options)
    : impl_(std::make_unique<Impl>(std::move(config), std::move(options))) {}

XboardPlayer::~XboardPlayer() {
  impl_->quit();
}

const std::string& XboardPlayer::name() const {
  return impl_->config.name;
}
std::optional<std::string> XboardPlayer::start() {
  return impl_->start();
}
bool XboardPlayer::alive() const {
  return impl_->conn.alive();
}
bool XboardPlayer::new_game(std::chrono::milliseconds timeout) {
  return impl_->new_game(timeout);
}
MoveReply XboardPlayer::go(const MoveRequest& request, std::chrono::milliseconds deadline) {
  return impl_->go(request, deadline);
}
void XboardPlayer::end_game(const std::string& result) {
  impl_->end_game(result);
}
void XboardPlayer::kill() {
  impl_->kill_process();
}
void XboardPlayer::quit() {
  impl_->quit();
}
std::string XboardPlayer::id_name() const {
  return impl_->features.myname;
}
std::string XboardPlayer::id_author() const {
  return "";
}
std::vector<std::string> XboardPlayer::take_warnings() {
  return impl_->conn.take_warnings();
}
const xboard::Features& XboardPlayer::features() const {
  return impl_->features;
}
int XboardPlayer::pid() const {
  return impl_->conn.pid();
}
std::uint64_t XboardPlayer::garbage_lines() const {
  return impl_->conn.garbage_lines();
}

}  // namespace knightly::runner

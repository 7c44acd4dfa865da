#include "runner/players/uci_player.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

#include "runner/players/engine_connection.h"
#include "runner/players/first_go.h"

namespace knightly::runner {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t MaxInfoStrings = 64;

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

}  // namespace

void append_position_and_go(const MoveRequest& cmd, std::string& out) {
  if (cmd.start_fen.empty() || cmd.start_fen == "startpos") {
    out += "position startpos";
  } else {
    out += "position fen ";
    out += cmd.start_fen;
  }
  if (!cmd.moves.empty()) {
    out += " moves";
    // One resize and plain copies: the move list grows with the game and is sent every ply.
    std::size_t size = out.size();
    for (const std::string& m : cmd.moves) size += 1 + m.size();
    std::size_t at = out.size();
    out.resize(size);
    char* dst = out.data();
    for (const std::string& m : cmd.moves) {
      dst[at++] = ' ';
      std::memcpy(dst + at, m.data(), m.size());
      at += m.size();
    }
  }
  out += "\ngo";
  auto field = [&](const char* key, std::int64_t v) {
    out += ' ';
    out += key;
    out += ' ';
    append_int(out, v);
  };
  if (cmd.infinite) {
    out += " infinite";
  } else {
    if (cmd.wtime_ms) field("wtime", std::max<std::int64_t>(*cmd.wtime_ms, 1));
    if (cmd.btime_ms) field("btime", std::max<std::int64_t>(*cmd.btime_ms, 1));
    if (cmd.winc_ms) field("winc", *cmd.winc_ms);
    if (cmd.binc_ms) field("binc", *cmd.binc_ms);
    if (cmd.movestogo) field("movestogo", *cmd.movestogo);
    if (cmd.movetime_ms) field("movetime", *cmd.movetime_ms);
    if (cmd.depth) field("depth", *cmd.depth);
    if (cmd.nodes) field("nodes", static_cast<std::int64_t>(*cmd.nodes));
  }
  out += '\n';
}

struct UciPlayer::Impl {
  using Wait = EngineConnection::Wait;

  EngineConfig config;
  PlayerOptions options;
  EngineConnection conn;
  std::string wbuf;  // the next command(s), reused

  // A `go` ended without its bestmove (stall): the engine may still send it. Before the next
  // command we send `stop` + `isready` and drop everything up to `readyok`, so that a late
  // bestmove is never taken as the answer to a later `go`.
  bool out_of_sync = false;

  uci::InfoLine info;     // last valid info line with a score in this search
  uci::InfoLine scratch;  // parse target; swapped into `info` when valid
  std::string info_text;  // `info`'s line as the engine wrote it
  bool have_info = false;

  // A `go ponder` is running (start_ponder): on the position of ponder_fen + ponder_moves,
  // since ponder_t0.
  bool pondering = false;
  std::string ponder_fen;
  std::vector<std::string> ponder_moves;
  Clock::time_point ponder_t0;

  std::string name_from_engine, author_from_engine;
  std::vector<uci::OptionDecl> engine_options;

  Impl(EngineConfig c, PlayerOptions o)
      : config(std::move(c)), options(std::move(o)), conn(config, options) {}

  Wait next_line(std::string_view& line) { return conn.next_line(line); }
  Wait write_all() { return conn.write(wbuf); }
  void note_garbage(std::string_view line, std::string_view why) { conn.note_garbage(line, why); }
  std::string exit_detail(const char* what) { return conn.exit_detail(what); }

  void kill_process() {
    conn.kill();
    out_of_sync = false;
    pondering = false;
  }

  void start_ponder(const MoveRequest& cmd) {
    if (!config.ponder || pondering || out_of_sync || !conn.started()) return;
    wbuf.clear();
    append_position_and_go(cmd, wbuf);
    wbuf.insert(wbuf.find("\ngo") + 3, " ponder");
    have_info = false;
    ponder_t0 = Clock::now();
    if (write_all() != Wait::Line) return;  // a dead engine shows at its next command
    pondering = true;
    ponder_fen.assign(cmd.start_fen);
    ponder_moves.assign(cmd.moves.begin(), cmd.moves.end());
  }

  // Ends a search on a move the opponent did not play: `stop`, and its bestmove is dropped.
  // An engine that does not answer is out of sync (the next command resyncs it).
  void stop_ponder() {
    if (!pondering) return;
    pondering = false;
    conn.arm(options.ready_timeout);
    wbuf = "stop\n";
    Wait w = write_all();
    if (w == Wait::Line) w = wait_for(uci::LineKind::BestMove);
    if (w != Wait::Line) out_of_sync = true;
  }

  // The request continues the search start_ponder began: same start, same moves.
  bool ponder_hit(const MoveRequest& cmd) const {
    return pondering && cmd.start_fen == ponder_fen &&
           std::equal(cmd.moves.begin(), cmd.moves.end(), ponder_moves.begin(), ponder_moves.end());
  }

  // Waits for a line of kind `want`, ignoring others. `info` lines are dropped.
  Wait wait_for(uci::LineKind want) {
    std::string_view line;
    for (;;) {
      Wait w = next_line(line);
      if (w != Wait::Line) return w;
      uci::LineKind kind = uci::classify(line);
      if (kind == want) return Wait::Line;
      if (kind == uci::LineKind::Unknown) note_garbage(line, "unknown command");
    }
  }

  // The last scored line into the reply: its figures, its PV as text, the line itself.
  void take_info(MoveReply& reply) const {
    reply.eval = info.eval;
    for (const std::string& m : info.pv) {
      if (!reply.eval.pv.empty()) reply.eval.pv += ' ';
      reply.eval.pv += m;
    }
    reply.bound = info.bound != uci::InfoLine::Bound::Exact;
    reply.info_line = info_text;
  }

  std::optional<std::string> start() {
    kill_process();
    name_from_engine.clear();
    author_from_engine.clear();
    engine_options.clear();
    if (auto e = conn.start()) return e;

    conn.arm(options.startup_timeout);
    wbuf = "uci\n";
    Wait w = write_all();
    std::string_view line;
    bool uciok = false;
    while (w == Wait::Line && !uciok) {
      w = next_line(line);
      if (w != Wait::Line) break;
      switch (uci::classify(line)) {
        case uci::LineKind::UciOk:
          uciok = true;
          break;
        case uci::LineKind::Id:
          if (auto id = uci::parse_id(line)) {
            (id->field == "name" ? name_from_engine : author_from_engine) = id->value;
          } else {
            note_garbage(line, id.error());
          }
          break;
        case uci::LineKind::Option:
          if (auto opt = uci::parse_option(line)) {
            engine_options.push_back(std::move(*opt));
          } else {
            note_garbage(line, opt.error());
          }
          break;
        case uci::LineKind::Unknown:
          note_garbage(line, "unknown command");
          break;
        default:
          break;  // info strings, copyprotection...: harmless before uciok
      }
    }
    if (!uciok) {
      std::string why =
          w == Wait::Timeout
              ? "no uciok within " + std::to_string(options.startup_timeout.count()) + " ms"
              : exit_detail("engine exited during the uci handshake");
      kill_process();
      return config.name + ": " + why;
    }
    wbuf.clear();
    for (const auto& [oname, value] : config.options) {
      auto it = std::find_if(
          engine_options.begin(), engine_options.end(),
          [&](const uci::OptionDecl& d) { return uci::option_name_equal(d.name, oname); });
      if (it == engine_options.end())
        conn.warn(config.name + ": the engine does not list option '" + oname + "' (sent anyway)");
      wbuf += "setoption name ";
      wbuf += it == engine_options.end() ? oname : it->name;
      if (!(it != engine_options.end() && it->type == "button" && value.empty())) {
        wbuf += " value ";
        wbuf += value;
      }
      wbuf += '\n';
    }
    // A pondering engine is told so when it has the UCI option and was not given it.
    if (config.ponder &&
        std::any_of(
            engine_options.begin(), engine_options.end(),
            [](const uci::OptionDecl& d) { return uci::option_name_equal(d.name, "Ponder"); }) &&
        std::none_of(config.options.begin(), config.options.end(),
                     [](const auto& o) { return uci::option_name_equal(o.first, "Ponder"); }))
      wbuf += "setoption name Ponder value true\n";
    wbuf += "isready\n";
    conn.arm(options.ready_timeout);
    w = write_all();
    if (w == Wait::Line) w = wait_for(uci::LineKind::ReadyOk);
    if (w != Wait::Line) {
      std::string why = w == Wait::Timeout
                            ? "no readyok within " + std::to_string(options.ready_timeout.count()) +
                                  " ms after the options"
                            : exit_detail("engine exited after uciok");
      kill_process();
      return config.name + ": " + why;
    }
    return std::nullopt;
  }

  bool new_game(std::chrono::milliseconds timeout) {
    if (!conn.started()) return false;
    stop_ponder();
    conn.arm(timeout);
    wbuf = out_of_sync ? "stop\nucinewgame\nisready\n" : "ucinewgame\nisready\n";
    Wait w = write_all();
    if (w == Wait::Line) w = wait_for(uci::LineKind::ReadyOk);
    if (w == Wait::Timeout)
      conn.warn(config.name + ": no readyok within " + std::to_string(timeout.count()) + " ms");
    if (w == Wait::Line) out_of_sync = false;
    return w == Wait::Line;
  }

  MoveReply go(const MoveRequest& cmd, std::chrono::milliseconds deadline) {
    MoveReply reply;
    if (!conn.started()) {
      reply.status = MoveReply::Status::Disconnected;
      reply.detail = "engine not running";
      return reply;
    }
    // A ponder search on the move the opponent played goes on as this move's search: the
    // clock runs from `ponderhit`, the engine's reported time (its latency) from `go ponder`.
    std::optional<Clock::time_point> go_t0;
    if (ponder_hit(cmd)) {
      pondering = false;
      go_t0 = ponder_t0;
    } else {
      stop_ponder();
    }
    if (out_of_sync) {
      conn.arm(deadline);
      wbuf = "stop\nisready\n";
      Wait sync = write_all();
      if (sync == Wait::Line) sync = wait_for(uci::LineKind::ReadyOk);
      if (sync != Wait::Line) {
        reply.status =
            sync == Wait::Timeout ? MoveReply::Status::Stalled : MoveReply::Status::Disconnected;
        reply.detail = sync == Wait::Timeout ? "no readyok after a stalled search"
                                             : exit_detail("engine disconnected");
        return reply;
      }
      out_of_sync = false;
    }
    wbuf.clear();
    if (go_t0) {
      wbuf = "ponderhit\n";
    } else {
      append_position_and_go(cmd, wbuf);
      have_info = false;
    }
    // The engine's time runs from just before `go` is written, the instant its deadline counts
    // from: it is never charged less than it thought (the pipe may deliver `go` before the
    // write returns).
    const Clock::time_point t0 = conn.arm(deadline);
    Wait w = write_all();
    if (w == Wait::Line) note_go();
    const auto since = [&](Clock::time_point from) {
      return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - from).count();
    };

    std::string_view line;
    while (w == Wait::Line) {
      w = next_line(line);
      if (w != Wait::Line) break;
      uci::LineKind kind = uci::classify(line);
      if (kind == uci::LineKind::Info) {
        if (uci::info_has_score(line)) {
          if (auto r = uci::parse_info_into(line, scratch)) {
            std::swap(info, scratch);
            info_text.assign(line);
            have_info = true;
          } else {
            note_garbage(line, r.error());
          }
        } else if (reply.info_strings.size() < MaxInfoStrings) {
          if (auto text = uci::info_string_text(line)) {  // the usual form, without a full parse
            if (!text->empty()) reply.info_strings.emplace_back(*text);
          } else if (line.find("string") != std::string_view::npos &&
                     uci::parse_info_into(line, scratch) && !scratch.text.empty()) {
            reply.info_strings.push_back(scratch.text);
          }
        }
      } else if (kind == uci::LineKind::BestMove) {
        reply.elapsed_ms = since(t0);
        if (go_t0) reply.since_go_ms = since(*go_t0);
        reply.status = MoveReply::Status::Move;
        if (auto bm = uci::parse_bestmove(line)) {
          reply.bestmove = std::move(bm->move);
          reply.ponder = std::move(bm->ponder);
        } else {
          reply.detail = bm.error();  // empty bestmove: the match judges it illegal
        }
        if (have_info) take_info(reply);
        return reply;
      } else if (kind == uci::LineKind::Unknown) {
        note_garbage(line, "unknown command");
      }
      // readyok, id...: stray but harmless
    }
    reply.elapsed_ms = since(t0);
    if (w == Wait::Timeout) {
      out_of_sync = true;
      reply.status = MoveReply::Status::Stalled;
      reply.detail = "no bestmove within " + std::to_string(deadline.count()) + " ms";
    } else {
      reply.status = MoveReply::Status::Disconnected;
      reply.detail = exit_detail("engine disconnected");
    }
    conn.note("fault:", reply.detail);
    return reply;
  }

  void quit() {
    conn.quit("quit\n", options.quit_timeout);
    out_of_sync = false;
    pondering = false;
  }
};

UciPlayer::UciPlayer(EngineConfig config, PlayerOptions options)
    : impl_(std::make_unique<Impl>(std::move(config), std::move(options))) {}

UciPlayer::~UciPlayer() {
  impl_->quit();
}

const std::string& UciPlayer::name() const {
  return impl_->config.name;
}
std::optional<std::string> UciPlayer::start() {
  return impl_->start();
}

bool UciPlayer::alive() const {
  return impl_->conn.alive();
}

bool UciPlayer::new_game(std::chrono::milliseconds timeout) {
  return impl_->new_game(timeout);
}
MoveReply UciPlayer::go(const MoveRequest& cmd, std::chrono::milliseconds deadline) {
  return impl_->go(cmd, deadline);
}
void UciPlayer::start_ponder(const MoveRequest& cmd) {
  impl_->start_ponder(cmd);
}
void UciPlayer::end_game(const std::string& result) {
  (void)result;
  impl_->stop_ponder();
}
void UciPlayer::kill() {
  impl_->kill_process();
}
void UciPlayer::quit() {
  impl_->quit();
}
std::string UciPlayer::id_name() const {
  return impl_->name_from_engine;
}
std::string UciPlayer::id_author() const {
  return impl_->author_from_engine;
}
std::vector<std::string> UciPlayer::take_warnings() {
  return impl_->conn.take_warnings();
}
const std::vector<uci::OptionDecl>& UciPlayer::engine_options() const {
  return impl_->engine_options;
}
int UciPlayer::pid() const {
  return impl_->conn.pid();
}
std::uint64_t UciPlayer::garbage_lines() const {
  return impl_->conn.garbage_lines();
}

}  // namespace knightly::runner

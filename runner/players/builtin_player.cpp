#include "runner/players/builtin_player.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "engine/chess/notation.h"
#include "engine/uci/book_file.h"
#include "engine/uci/options.h"
#include "engine/uci/seed.h"
#include "runner/players/first_go.h"

namespace knightly::runner {

using Clock = std::chrono::steady_clock;

std::expected<search::SearchConfig, std::string> builtin_search_config(
    const EngineConfig& config, std::vector<std::string>& warnings) {
  search::SearchConfig sc;
  for (const auto& [name, value] : config.options) {
    const auto& specs = engine::option_specs();
    auto spec = std::find_if(specs.begin(), specs.end(), [&](const engine::OptionSpec& s) {
      return s.name.size() == name.size() &&
             std::equal(s.name.begin(), s.name.end(), name.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
             });
    });
    if (spec == specs.end()) {
      warnings.push_back(config.name + ": the builtin engine has no option '" + name +
                         "' (ignored)");
      continue;
    }
    if (spec->type == engine::OptionType::Button) continue;  // Clear Hash: a fresh Search is clear
    if (auto r = engine::apply_option(sc, name, value); !r)
      return std::unexpected(config.name + ": " + r.error());
  }
  return sc;
}

search::Limits builtin_limits(const MoveRequest& cmd) {
  search::Limits l;
  if (cmd.infinite) {
    l.infinite = true;
    return l;
  }
  if (cmd.wtime_ms) l.time_ms[chess::White] = std::max<std::int64_t>(*cmd.wtime_ms, 1);
  if (cmd.btime_ms) l.time_ms[chess::Black] = std::max<std::int64_t>(*cmd.btime_ms, 1);
  if (cmd.winc_ms) l.inc_ms[chess::White] = *cmd.winc_ms;
  if (cmd.binc_ms) l.inc_ms[chess::Black] = *cmd.binc_ms;
  if (cmd.movestogo) l.movestogo = *cmd.movestogo;
  if (cmd.movetime_ms) l.movetime_ms = std::max<std::int64_t>(*cmd.movetime_ms, 1);
  if (cmd.depth) l.depth = *cmd.depth;
  if (cmd.nodes) l.nodes = *cmd.nodes;
  return l;
}

void set_eval_score(int score, MoveEval& eval) {
  if (search::is_mate_score(score)) {
    // as Stockfish prints it: mate in N moves, negative when being mated
    eval.mate = score > 0 ? (search::MateScore - score + 1) / 2 : -(search::MateScore + score) / 2;
    eval.score_cp.reset();
  } else {
    eval.score_cp = score;
    eval.mate.reset();
  }
}

BuiltinPlayer::BuiltinPlayer(EngineConfig config) : config_(std::move(config)) {}

BuiltinPlayer::~BuiltinPlayer() = default;

std::optional<std::string> BuiltinPlayer::start() {
  kill();
  auto sc = builtin_search_config(config_, warnings_);
  if (!sc) return sc.error();
  seed_from_clock_ = sc->seed == 0;
  if (seed_from_clock_) sc->seed = engine::clock_seed();
  std::shared_ptr<const search::OpeningBook> book;
  if (sc->own_book && !sc->book_file.empty()) {
    auto loaded = engine::load_book_file(sc->book_file);
    if (!loaded) return config_.name + ": " + loaded.error();
    book = std::move(*loaded);
  }
  search_ = std::make_unique<search::Search>(std::move(*sc));
  search_->set_book(std::move(book));
  return std::nullopt;  // kill() above forgot the position
}

bool BuiltinPlayer::alive() const {
  return search_ != nullptr;
}

void BuiltinPlayer::kill() {
  search_.reset();
  pos_valid_ = false;
}

bool BuiltinPlayer::new_game(std::chrono::milliseconds) {
  if (!search_) return false;
  if (seed_from_clock_) {
    search::SearchConfig c = search_->config();
    c.seed = engine::clock_seed();
    search_->set_config(std::move(c));
  }
  search_->new_game();
  return true;
}

std::vector<std::string> BuiltinPlayer::take_warnings() {
  return std::exchange(warnings_, {});
}

std::optional<std::string> BuiltinPlayer::set_position(const MoveRequest& cmd) {
  const std::string_view fen = cmd.start_fen;
  bool extends = pos_valid_ && fen == pos_fen_ && cmd.moves.size() >= pos_moves_.size() &&
                 std::equal(pos_moves_.begin(), pos_moves_.end(), cmd.moves.begin());
  std::size_t from = pos_moves_.size();
  if (!extends) {
    pos_valid_ = false;
    if (fen.empty() || fen == "startpos") {
      pos_ = chess::Position();
    } else {
      auto p = chess::Position::from_fen(fen);
      if (!p) return "bad start FEN '" + std::string(fen) + "': " + p.error().message;
      pos_ = std::move(*p);
    }
    pos_fen_.assign(fen);
    pos_moves_.clear();
    from = 0;
  }
  for (std::size_t i = from; i < cmd.moves.size(); ++i) {
    auto m = chess::parse_uci(pos_, cmd.moves[i]);
    if (!m) {
      pos_valid_ = false;
      return "move " + std::to_string(i + 1) + " '" + cmd.moves[i] + "': " + m.error();
    }
    pos_.do_move(*m);
    pos_moves_.push_back(cmd.moves[i]);
  }
  pos_valid_ = true;
  return std::nullopt;
}

MoveReply BuiltinPlayer::go(const MoveRequest& cmd, std::chrono::milliseconds deadline) {
  MoveReply reply;
  if (!search_) {
    reply.status = MoveReply::Status::Disconnected;
    reply.detail = "builtin engine not started";
    return reply;
  }
  // The match hands over its own position; without it, the move text is replayed.
  const chess::Position* pos = cmd.position;
  if (!pos) {
    if (auto err = set_position(cmd)) {
      reply.status = MoveReply::Status::Disconnected;
      reply.detail = *err;
      return reply;
    }
    pos = &pos_;
  }
  search::Limits limits = builtin_limits(cmd);
  limits.deadline_ms = std::max<std::int64_t>(1, deadline.count());
  const Clock::time_point t0 = Clock::now();
  note_go();
  const search::SearchResult result = search_->go(*pos, limits, never_stop_);
  reply.elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
  reply.status = MoveReply::Status::Move;
  reply.bestmove = chess::to_uci(result.best);
  if (!result.ponder.is_none()) reply.ponder = chess::to_uci(result.ponder);
  const search::SearchInfo& info = result.info;
  reply.eval.depth = info.depth;
  reply.eval.seldepth = info.seldepth;
  reply.eval.nodes = info.nodes;
  reply.eval.engine_time_ms = info.time_ms;
  if (info.time_ms > 0)
    reply.eval.nps = info.nodes * 1000 / static_cast<std::uint64_t>(info.time_ms);
  if (info.depth > 0 || !info.pv.empty()) set_eval_score(info.score, reply.eval);
  for (chess::Move m : info.pv) {
    if (!reply.eval.pv.empty()) reply.eval.pv += ' ';
    reply.eval.pv += chess::to_uci(m, cmd.chess960);
  }
  if (result.from_book) reply.detail = "book move";
  return reply;
}

}  // namespace knightly::runner

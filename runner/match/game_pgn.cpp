#include "runner/match/game_pgn.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "db/records/move_eval.h"
#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"

namespace knightly::runner {

const char* pgn_termination(Termination t) {
  switch (t) {
    case Termination::Checkmate:
    case Termination::Stalemate:
    case Termination::Repetition:
    case Termination::FiftyMoves:
    case Termination::InsufficientMaterial:
    case Termination::Resignation:
      return "normal";
    case Termination::AdjudicationDraw:
    case Termination::AdjudicationResign:
    case Termination::AdjudicationTablebase:
    case Termination::MaxMoves:
      return "adjudication";
    case Termination::TimeForfeit:
      return "time forfeit";
    case Termination::IllegalMove:
    case Termination::FalseClaim:
      return "rules infraction";
    case Termination::Disconnect:
    case Termination::Stall:
      return "abandoned";
    case Termination::None:
    case Termination::Interrupted:
      return "unterminated";
  }
  return "unterminated";
}

const char* notation_name(PgnNotation n) {
  switch (n) {
    case PgnNotation::San:
      return "san";
    case PgnNotation::Lan:
      return "lan";
    case PgnNotation::Uci:
      return "uci";
  }
  return "san";
}

namespace {

// fastchess's time text in the extra fields: seconds with three decimals.
std::string seconds_text(std::int64_t ms) {
  std::string text;
  append_seconds(text, ms, 3);
  return text;
}

}  // namespace

std::string move_comment(const MoveRecord& move, const PgnOptions& options) {
  if (move.book) return "book";
  const MoveEval& eval = move.eval;
  std::string out = eval_comment(eval, move.time_ms);
  auto field = [&](bool wanted, const std::string& text) {
    if (wanted) out += (out.empty() ? "" : ", ") + text;
  };
  // fastchess's order; a field the record has no figure for is left out.
  field(options.timeleft && move.clock_left_ms >= 0, "tl=" + seconds_text(move.clock_left_ms));
  if (options.latency && move.latency_ms) field(true, "latency=" + seconds_text(*move.latency_ms));
  field(options.nodes, "n=" + std::to_string(eval.nodes));
  field(options.seldepth && eval.seldepth > 0, "sd=" + std::to_string(eval.seldepth));
  if (options.nps && eval.nps) field(true, "nps=" + std::to_string(*eval.nps));
  if (options.hashfull && eval.hashfull) field(true, "hashfull=" + std::to_string(*eval.hashfull));
  if (options.tbhits && eval.tbhits) field(true, "tbhits=" + std::to_string(*eval.tbhits));
  field(options.pv && !eval.pv.empty(), "pv=\"" + eval.pv + "\"");
  for (const std::string& line : move.lines) field(true, "line=\"" + line + "\"");
  return out;
}

std::string lan_text(const MoveRecord& move) {
  const std::string& san = move.san;
  if (san.starts_with("O-O") || move.uci.size() < 4) return san.empty() ? move.uci : san;
  std::string out;
  if (!san.empty() && san[0] >= 'A' && san[0] <= 'Z') out += san[0];
  out += move.uci.substr(0, 2);
  if (san.find('x') != std::string::npos) out += 'x';
  out += move.uci.substr(2, 2);
  if (move.uci.size() > 4)
    out +=
        std::string("=") + static_cast<char>(std::toupper(static_cast<unsigned char>(move.uci[4])));
  if (!san.empty() && (san.back() == '+' || san.back() == '#')) out += san.back();
  return out;
}

std::string format_duration(std::int64_t ms) {
  std::int64_t s = ms < 0 ? 0 : ms / 1000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", (long long)(s / 3600),
                (long long)(s / 60 % 60), (long long)(s % 60));
  return buf;
}

std::string to_pgn(const GameRecord& record, const PgnHeader& header, const PgnOptions& options) {
  chess::PgnGame game;
  auto tag = [&](const char* name, std::string value) {
    game.tags.emplace_back(name, value.empty() ? "?" : std::move(value));
  };
  std::string date = "????.??.??";
  if (record.start_time.size() >= 10 && record.start_time[4] == '-' &&
      record.start_time[7] == '-') {
    date = record.start_time.substr(0, 4) + "." + record.start_time.substr(5, 2) + "." +
           record.start_time.substr(8, 2);
  }
  const char* result = result_token(record.result);
  tag("Event", header.event);
  tag("Site", header.site);
  tag("Date", date);
  tag("Round", header.round);
  tag("White", record.white);
  tag("Black", record.black);
  tag("Result", result);

  const bool variant = !header.variant.empty() && header.variant != "standard";
  if (variant) tag("Variant", header.variant);
  chess::Position pos;
  if (!record.start_fen.empty()) {
    if (auto p = chess::Position::from_fen(record.start_fen)) {
      pos = *p;
      tag("SetUp", "1");
      tag("FEN", record.start_fen);
    }
  } else if (variant) {
    tag("SetUp", "1");
    tag("FEN", std::string(chess::Position::StartFen));
  }
  game.start_fen = pos.fen();
  // A record the match wrote holds each move and its SAN: nothing to replay. Records read
  // back from text are replayed, checked and given SAN where it lacks.
  const bool complete =
      std::all_of(record.moves.begin(), record.moves.end(),
                  [](const MoveRecord& m) { return !m.move.is_none() && !m.san.empty(); });
  auto comment = [&](const MoveRecord& m) {
    return options.min ? std::string() : move_comment(m, options);
  };
  for (const MoveRecord& m : record.moves) {
    if (complete) {
      game.moves.push_back({m.move, m.san, comment(m)});
      continue;
    }
    auto move = chess::parse_uci(pos, m.uci);
    if (!move) break;
    // The record's SAN was written from this same position when the move was played; it is
    // recomputed only for records that lack it.
    game.moves.push_back({*move, m.san.empty() ? chess::to_san(pos, *move) : m.san, comment(m)});
    pos.do_move(*move);
  }
  if (options.notation != PgnNotation::San) {
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
      MoveRecord m = record.moves[i];
      m.san = game.moves[i].san;
      game.moves[i].san = options.notation == PgnNotation::Uci ? m.uci : lan_text(m);
    }
  }
  if (options.min) {
    // The minimal form: the tags written so far (Seven Tag Roster, SetUp/FEN) and the moves.
    game.result = result;
    return chess::write_pgn(game);
  }
  if (!record.reason.empty()) {
    // cutechess: the reason joins the last move's comment, or stands alone before any move.
    std::string& c = game.moves.empty() ? game.comment : game.moves.back().comment;
    c += c.empty() ? record.reason : ", " + record.reason;
  }
  tag("PlyCount", std::to_string(game.moves.size()));
  if (header.white_time_control == header.black_time_control) {
    tag("TimeControl", header.white_time_control);
  } else {
    tag("WhiteTimeControl", header.white_time_control);
    tag("BlackTimeControl", header.black_time_control);
  }
  // A finished game whose ending is not known (an imported game without a reason: a
  // resignation, an agreed draw) gets no Termination tag, as cutechess writes such games;
  // "unterminated" is for unfinished games only.
  if (record.termination != Termination::None || record.result == Result::None)
    tag("Termination", pgn_termination(record.termination));
  if (!record.start_time.empty()) tag("GameStartTime", record.start_time);
  tag("GameDuration", format_duration(record.duration_ms));
  if (!record.opening_source.empty()) tag("Opening", record.opening_source);
  game.result = result;
  return chess::write_pgn(game);
}

}  // namespace knightly::runner

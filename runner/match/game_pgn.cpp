#include "runner/match/game_pgn.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <utility>
#include <vector>

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
  // A field's text is built only when it is written (most games ask for none).
  auto field = [&](const char* name, const std::string& value, const char* quote = "") {
    if (!out.empty()) out += ", ";
    out.append(name).append(quote).append(value).append(quote);
  };
  // fastchess's order; a field the record has no figure for is left out.
  if (options.timeleft && move.clock_left_ms >= 0) field("tl=", seconds_text(move.clock_left_ms));
  if (options.latency && move.latency_ms) field("latency=", seconds_text(*move.latency_ms));
  if (options.nodes) field("n=", std::to_string(eval.nodes));
  if (options.seldepth && eval.seldepth > 0) field("sd=", std::to_string(eval.seldepth));
  if (options.nps && eval.nps) field("nps=", std::to_string(*eval.nps));
  if (options.hashfull && eval.hashfull) field("hashfull=", std::to_string(*eval.hashfull));
  if (options.tbhits && eval.tbhits) field("tbhits=", std::to_string(*eval.tbhits));
  if (options.pv && !eval.pv.empty()) field("pv=", eval.pv, "\"");
  for (const std::string& line : move.lines) field("line=", line, "\"");
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

namespace {

using Tags = std::vector<std::pair<std::string, std::string>>;

// The tags of a record's PGN in to_pgn's order: the Seven Tag Roster, Variant, SetUp/FEN
// (`fen`: the record's start FEN is a position), then unless `min`: PlyCount (`plies`, the
// moves written), the time controls, Termination, GameStartTime, GameDuration, Opening.
Tags pgn_tags(const GameRecord& record, const PgnHeader& header, bool fen, std::size_t plies,
              bool min) {
  Tags tags;
  auto tag = [&](const char* name, std::string value) {
    tags.emplace_back(name, value.empty() ? "?" : std::move(value));
  };
  std::string date = "????.??.??";
  if (record.start_time.size() >= 10 && record.start_time[4] == '-' &&
      record.start_time[7] == '-') {
    date = record.start_time.substr(0, 4) + "." + record.start_time.substr(5, 2) + "." +
           record.start_time.substr(8, 2);
  }
  tag("Event", header.event);
  tag("Site", header.site);
  tag("Date", date);
  tag("Round", header.round);
  tag("White", record.white);
  tag("Black", record.black);
  tag("Result", result_token(record.result));
  const bool variant = !header.variant.empty() && header.variant != "standard";
  if (variant) tag("Variant", header.variant);
  if (fen) {
    tag("SetUp", "1");
    tag("FEN", record.start_fen);
  } else if (variant && record.start_fen.empty()) {
    tag("SetUp", "1");
    tag("FEN", std::string(chess::Position::StartFen));
  }
  if (min) return tags;
  tag("PlyCount", std::to_string(plies));
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
  return tags;
}

bool start_fen_is_position(const GameRecord& record) {
  return !record.start_fen.empty() && chess::Position::from_fen(record.start_fen).has_value();
}

}  // namespace

std::string pgn_tags_text(const GameRecord& record, const PgnHeader& header, std::size_t plies,
                          std::span<const std::string_view> unknown) {
  Tags tags = pgn_tags(record, header, start_fen_is_position(record), plies, false);
  std::erase_if(tags, [&](const auto& tag) {
    return std::find(unknown.begin(), unknown.end(), tag.first) != unknown.end();
  });
  return chess::write_pgn_tags(tags);
}

std::string to_pgn(const GameRecord& record, const PgnHeader& header, const PgnOptions& options) {
  chess::PgnGame game;
  const char* result = result_token(record.result);
  chess::Position pos;
  bool fen = false;
  if (!record.start_fen.empty()) {
    if (auto p = chess::Position::from_fen(record.start_fen)) {
      pos = *p;
      fen = true;
    }
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
  // The minimal form: the Seven Tag Roster (and SetUp/FEN), the moves, no reason.
  game.tags = pgn_tags(record, header, fen, game.moves.size(), options.min);
  game.result = result;
  if (!options.min) add_reason(game, record.reason);
  return chess::write_pgn(game);
}

}  // namespace knightly::runner

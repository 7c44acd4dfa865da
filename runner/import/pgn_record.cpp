#include "runner/import/pgn_record.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "engine/chess/notation.h"
#include "runner/match/game.h"
#include "runner/match/game_pgn.h"

namespace knightly::runner::pgn_import {
namespace {

// The termination class of an imported game, from the reason cutechess and fastchess put in
// the last comment, else from the PGN Termination tag (the standard's values and cutechess's).
Termination classify(const std::string& reason, const std::string& tag, Result result) {
  auto has = [&](const char* word) { return reason.find(word) != std::string::npos; };
  const Termination adjudication =
      result == Result::Draw ? Termination::AdjudicationDraw : Termination::AdjudicationResign;
  if (has("mates")) return Termination::Checkmate;
  if (has("stalemate")) return Termination::Stalemate;
  if (has("repetition")) return Termination::Repetition;
  if (has("fifty") || has("50")) return Termination::FiftyMoves;
  if (has("insufficient")) return Termination::InsufficientMaterial;
  if (has("max moves")) return Termination::MaxMoves;
  if (has("adjudication")) return adjudication;
  if (has("on time")) return Termination::TimeForfeit;
  if (has("illegal")) return Termination::IllegalMove;
  if (has("disconnects")) return Termination::Disconnect;
  if (has("stalls")) return Termination::Stall;
  if (tag == "time forfeit") return Termination::TimeForfeit;
  if (tag == "adjudication") return adjudication;
  if (tag == "rules infraction" || tag == "illegal move") return Termination::IllegalMove;
  if (tag == "abandoned") return Termination::Disconnect;
  if (tag == "stalled connection") return Termination::Stall;
  return Termination::None;
}

// The reason text cutechess appends to the last move's comment ("+0.35/12 0.5s, White mates").
std::string reason_from_comment(const std::string& comment) {
  auto comma = comment.rfind(", ");
  std::string tail = comma == std::string::npos ? comment : comment.substr(comma + 2);
  for (const char* w : {"mates", "stalemate", "repetition", "fifty", "insufficient", "adjudication",
                        "on time", "illegal", "disconnects", "stalls", "Draw", "wins", "resigns"})
    if (tail.find(w) != std::string::npos) return tail;
  return "";
}

// Whether `text` is `pattern` with a digit wherever the pattern has 'd'.
bool matches(std::string_view text, std::string_view pattern) {
  if (text.size() != pattern.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (pattern[i] == 'd' ? !(text[i] >= '0' && text[i] <= '9') : text[i] != pattern[i])
      return false;
  return true;
}

// The UTC start time ("2026-11-21T23:59:01Z") from cutechess's and fastchess's GameStartTime
// ("2026-11-21T23:59:01 UTC", fractions allowed), else from Date and Time; "" when neither is
// a date. Only this one form is kept, so that our export writes back what was read.
std::string start_time_of(const chess::PgnGame& g) {
  const std::string t = g.tag("GameStartTime");
  if (t.size() >= 19 && matches(std::string_view(t).substr(0, 19), "dddd-dd-ddTdd:dd:dd"))
    return t.substr(0, 19) + "Z";
  const std::string d = g.tag("Date");
  if (!matches(d, "dddd.dd.dd")) return "";
  const std::string time = g.tag("Time");
  return d.substr(0, 4) + "-" + d.substr(5, 2) + "-" + d.substr(8, 2) + "T" +
         (matches(time, "dd:dd:dd") ? time : "00:00:00") + "Z";
}

// A tag value on one line, as the PGN writer writes it: control characters (a tab, a carriage
// return a tag can hold) become spaces, so what is stored is what every export shows.
std::string one_line(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  return text;
}

// A player's name: one line, "?" when the tag is missing.
std::string pgn_name(const std::string& tag) {
  return tag.empty() ? "?" : one_line(tag);
}

bool is_chess960_tag(std::string variant) {
  for (char& c : variant) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return variant == "fischerandom" || variant == "chess960" || variant == "chess 960" ||
         variant == "frc" || variant == "dfrc";
}

// "" for the initial position, as the Game records it; otherwise the canonical FEN.
std::string normal_start_fen(const std::string& fen) {
  if (fen.empty() || fen == chess::Position::StartFen) return "";
  auto pos = chess::Position::from_fen(fen);
  if (!pos) return fen;
  std::string canonical = pos->fen();
  return canonical == chess::Position::StartFen ? "" : canonical;
}

}  // namespace

// What identifies one game wherever it came from: hashed the same way for a game Knightly
// stored and for a game read back from its export (start time to the second).
std::string game_fingerprint(GameRecord record, const db::MoveLists* lists) {
  record.start_fen = normal_start_fen(record.start_fen);
  const std::string when = record.start_time.substr(0, 19);
  return db::GameWrites::content_hash(record, when, lists);
}

namespace {

// GameDuration "HH:MM:SS" (as the run writes it, hours past 99 too) in milliseconds; 0 when
// the tag is missing or says something else.
std::int64_t duration_of(const std::string& tag) {
  long long h = 0, m = 0, sec = 0;
  char end = 0;
  if (std::sscanf(tag.c_str(), "%lld:%2lld:%2lld%c", &h, &m, &sec, &end) != 3 || h < 0 || m < 0 ||
      m > 59 || sec < 0 || sec > 59)
    return 0;
  return ((h * 60 + m) * 60 + sec) * 1000;
}

}  // namespace

namespace {

// The moves of `g` as the row's lists, when they fit there (db::MoveListsOrder): the book
// moves first, and every move with its text; else nullopt (the importer then builds a
// MoveRecord each).
std::optional<db::MoveLists> lists_of(chess::PgnGame& g, bool chess960) {
  db::MoveLists lists;
  lists.plies = static_cast<int>(g.moves.size());
  lists.uci.reserve(g.moves.size() * 5);
  lists.san.reserve(g.moves.size() * 5);
  db::MoveListsOrder order;
  for (chess::PgnMove& m : g.moves) {
    const bool book = m.comment == "book";
    if (!lists.uci.empty()) {
      lists.uci += ' ';
      lists.san += ' ';
    }
    const std::size_t uci_at = lists.uci.size();
    chess::append_uci(lists.uci, m.move, chess960);
    const std::string_view uci = std::string_view(lists.uci).substr(uci_at);
    if (!order.admits(book, uci, m.san)) return std::nullopt;
    lists.san += m.san;
    if (book) {
      if (!lists.book_uci.empty()) lists.book_uci += ' ';
      lists.book_uci += uci;
    }
  }
  return lists;
}

// The record's moves, one MoveRecord each (a game whose moves do not fit the lists). The SAN
// is moved out of `g`.
void moves_of(chess::PgnGame& g, bool chess960, GameRecord& r) {
  r.moves.resize(g.moves.size());
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    chess::PgnMove& m = g.moves[i];
    MoveRecord& mr = r.moves[i];
    mr.uci = chess::to_uci(m.move, chess960);
    mr.san = std::move(m.san);
    mr.move = m.move;
    mr.book = m.comment == "book";
  }
}

}  // namespace

// A finished game as an import item, its ending found from the comment, the tag or the
// position.
db::ImportItem item_of(chess::PgnGame& g, Result result) {
  db::ImportItem item;
  GameRecord& r = item.record;
  r.result = result;
  r.white = pgn_name(g.tag("White"));
  r.black = pgn_name(g.tag("Black"));
  // A Chess960 game (cutechess's and fastchess's "fischerandom", lichess's "Chess960") keeps
  // its variant, its named start position and king-takes-rook castlings, as the run stores it.
  const bool chess960 = is_chess960_tag(g.tag("Variant"));
  r.start_fen = normal_start_fen(g.start_fen);
  if (chess960 && r.start_fen.empty()) r.start_fen = std::string(chess::Position::StartFen);
  r.reason = reason_from_comment(g.moves.empty() ? g.comment : g.moves.back().comment);
  item.lists = lists_of(g, chess960);
  if (!item.lists) moves_of(g, chess960, r);
  r.termination = classify(r.reason, g.tag("Termination"), r.result);
  if (r.termination == Termination::None) {
    // No word on how it ended: the final position may say (mate, stalemate, a draw by rule),
    // when it agrees with the result.
    auto over = rules_end(g.end, g.end_side);
    if (over && over->result == r.result) {
      r.termination = over->termination;
      if (r.reason.empty()) r.reason = over->reason;
    }
  }
  // One TimeControl, or cutechess's WhiteTimeControl and BlackTimeControl when the sides
  // differ ("white / black" in the record, as the run stores such a game).
  std::string white_tc = g.tag("TimeControl"), black_tc = white_tc;
  if (white_tc.empty()) {
    white_tc = g.tag("WhiteTimeControl");
    black_tc = g.tag("BlackTimeControl");
    if (white_tc.empty() != black_tc.empty()) white_tc = black_tc = "";  // one side alone: none
  }
  r.time_control = white_tc == black_tc ? white_tc : white_tc + " / " + black_tc;
  r.start_time = start_time_of(g);
  r.duration_ms = duration_of(g.tag("GameDuration"));
  r.opening_source = g.tag("Opening");
  PgnHeader header;
  header.event = g.tag("Event").empty() ? "?" : g.tag("Event");
  header.site = g.tag("Site").empty() ? "?" : g.tag("Site");
  header.round = g.tag("Round").empty() ? "?" : g.tag("Round");
  if (chess960) header.variant = "fischerandom";
  if (!r.time_control.empty()) {
    header.white_time_control = white_tc;
    header.black_time_control = black_tc;
  }
  // What the source did not say is not written as if it had: no GameDuration of 00:00:00, no
  // GameStartTime at midnight of its Date, no TimeControl "-" (untimed) for a game it does
  // not say was.
  std::vector<std::string_view> unknown;
  if (g.tag("GameDuration").empty()) unknown.push_back("GameDuration");
  if (g.tag("GameStartTime").empty()) unknown.push_back("GameStartTime");
  if (r.time_control.empty()) unknown.push_back("TimeControl");
  item.pgn_tags = pgn_tags_text(r, header, g.moves.size(), unknown);
  item.dedup_key = dedup_key(g, r);
  item.content_hash = db::GameWrites::content_hash(r, item.dedup_key, item.move_lists());
  return item;
}

// What identifies an imported game beyond its players, start, moves and result (which the
// content hash covers too): its Event, Site and Round tags and its start time, each as our
// export writes it again ("?" for a missing tag, the start time from GameStartTime or
// Date/Time), so that importing the export of imported games finds them all present.
std::string dedup_key(const chess::PgnGame& g, const GameRecord& record) {
  const auto tag = [&](const char* name) {
    std::string value = g.tag(name);
    return value.empty() ? std::string("?") : one_line(value);
  };
  return tag("Event") + "\n" + tag("Site") + "\n" + tag("Round") + "\n" + record.start_time;
}

}  // namespace knightly::runner::pgn_import

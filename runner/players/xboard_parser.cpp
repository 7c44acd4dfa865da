#include "runner/players/xboard_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <limits>

#include "engine/chess/notation.h"

namespace knightly::runner::xboard {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The first token of `s` (after blanks); `rest` gets what follows it, blanks skipped.
std::string_view first_token(std::string_view s, std::string_view* rest = nullptr) {
  s = trim(s);
  std::size_t end = 0;
  while (end < s.size() && !is_space(s[end])) ++end;
  if (rest) *rest = trim(s.substr(end));
  return s.substr(0, end);
}

template <typename T>
std::optional<T> to_number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  T v{};
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return v;
}

std::string quoted(std::string_view s) {
  return "'" + std::string(s.substr(0, 80)) + "'";
}

bool is_claim_token(std::string_view t) {
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "resign";
}

std::vector<std::string> split_commas(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    std::size_t comma = s.find(',');
    std::string_view item = trim(s.substr(0, comma));
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace

LineKind classify(std::string_view line) {
  std::string_view rest;
  std::string_view t = first_token(line, &rest);
  if (t.empty()) return LineKind::Empty;
  if (t == "feature") return LineKind::Feature;
  if (t == "move" || (t == "My" && rest.starts_with("move is"))) return LineKind::Move;
  if (t == "pong") return LineKind::Pong;
  if (is_claim_token(t)) return LineKind::Claim;
  if (t.starts_with("Illegal")) return LineKind::IllegalMove;
  if (t.starts_with("Error")) return LineKind::Error;
  if (t.front() == '#' || t.starts_with("tell") || t == "offer" || t == "askuser" || t == "hint:")
    return LineKind::Chatter;
  // Thinking output starts with the ply number (sometimes marked: "7.", "7&").
  if (std::isdigit(static_cast<unsigned char>(t.front()))) {
    std::size_t digits = 0;
    while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits]))) ++digits;
    if (digits >= t.size() - 1 && !rest.empty()) return LineKind::Thinking;
  }
  return LineKind::Unknown;
}

std::expected<std::vector<Feature>, std::string> parse_features(std::string_view line) {
  std::string_view s;
  if (first_token(line, &s) != "feature") return std::unexpected("not a feature line");
  std::vector<Feature> out;
  while (!s.empty()) {
    std::size_t eq = s.find('=');
    // A name that trims to nothing ("\r=0") is no name either.
    if (eq == std::string_view::npos || trim(s.substr(0, eq)).empty())
      return std::unexpected("feature " + quoted(s) + " has no NAME=VALUE");
    Feature f;
    f.name = std::string(trim(s.substr(0, eq)));
    if (f.name.find_first_of(" \t") != std::string::npos)
      return std::unexpected("feature name " + quoted(f.name) + " has a blank");
    s = trim(s.substr(eq + 1));
    if (!s.empty() && s.front() == '"') {
      std::size_t close = s.find('"', 1);
      if (close == std::string_view::npos)
        return std::unexpected("feature " + f.name + ": unterminated quoted value");
      f.value = std::string(s.substr(1, close - 1));
      s = trim(s.substr(close + 1));
    } else {
      std::size_t end = 0;
      while (end < s.size() && !is_space(s[end])) ++end;
      if (end == 0) return std::unexpected("feature " + f.name + " has no value");
      f.value = std::string(s.substr(0, end));
      s = trim(s.substr(end));
    }
    out.push_back(std::move(f));
  }
  if (out.empty()) return std::unexpected("feature line names no feature");
  return out;
}

bool Features::supports_variant(std::string_view v) const {
  return std::find(variants.begin(), variants.end(), v) != variants.end();
}

bool Features::has_option(std::string_view name) const {
  for (const std::string& decl : options) {
    // option="NAME -type ...": the name runs up to " -".
    std::size_t dash = decl.find(" -");
    if (trim(std::string_view(decl).substr(0, dash)) == name) return true;
  }
  return false;
}

bool apply_feature(Features& features, const Feature& f) {
  const std::string& v = f.value;
  auto flag = [&](bool& out) {
    if (v != "0" && v != "1") return false;
    out = v == "1";
    return true;
  };
  if (f.name == "ping") return flag(features.ping);
  if (f.name == "setboard") return flag(features.setboard);
  if (f.name == "san") return flag(features.san);
  if (f.name == "usermove") return flag(features.usermove);
  if (f.name == "time") return flag(features.time);
  if (f.name == "colors") {
    // We never send `white`/`black`: an engine that needs them is refused the feature.
    bool wants = false;
    if (!flag(wants)) return false;
    features.colors = wants;
    return !wants;
  }
  if (f.name == "sigint" || f.name == "sigterm") {
    // The runner sends no signals but SIGKILL after `quit`'s grace: 0 is what it does.
    return v == "0";
  }
  if (f.name == "myname") {
    features.myname = v;
    return true;
  }
  if (f.name == "variants") {
    features.variants = split_commas(v);
    return true;
  }
  if (f.name == "option") {
    features.options.push_back(v);
    return true;
  }
  if (f.name == "done") {
    bool d = false;
    if (!flag(d)) return false;
    features.done = d;
    return true;
  }
  // Announcements the runner has no use for but that ask nothing of it.
  if (f.name == "reuse" || f.name == "analyze" || f.name == "draw" || f.name == "pause" ||
      f.name == "playother" || f.name == "ics" || f.name == "name" || f.name == "memory" ||
      f.name == "smp" || f.name == "debug" || f.name == "exclude" || f.name == "nps")
    return true;
  return false;
}

std::expected<std::string, std::string> parse_move(std::string_view line) {
  std::string_view rest;
  const std::string_view word = first_token(line, &rest);
  if (word == "My" && rest.starts_with("move is")) {
    // GNU Chess 6 in xboard mode: "My move is : e2e4" (older xboards read it too).
    rest = trim(rest.substr(7));
    if (!rest.empty() && rest.front() == ':') rest = trim(rest.substr(1));
  } else if (word != "move") {
    return std::unexpected("not a move line");
  }
  std::string_view move = first_token(rest);
  if (move.empty()) return std::unexpected("'move' without a move");
  return std::string(move);
}

std::expected<std::int64_t, std::string> parse_pong(std::string_view line) {
  std::string_view rest;
  if (first_token(line, &rest) != "pong") return std::unexpected("not a pong line");
  std::string_view n = first_token(rest);
  auto v = to_number<std::int64_t>(n);
  if (!v) return std::unexpected("pong " + quoted(n) + " is not a number");
  return *v;
}

std::expected<Claim, std::string> parse_claim(std::string_view line) {
  std::string_view t = first_token(line);
  Claim c;
  if (t == "1-0") {
    c.kind = Claim::Kind::WhiteWins;
  } else if (t == "0-1") {
    c.kind = Claim::Kind::BlackWins;
  } else if (t == "1/2-1/2") {
    c.kind = Claim::Kind::Draw;
  } else if (t == "resign") {
    c.kind = Claim::Kind::Resign;
  } else {
    return std::unexpected(quoted(t) + " is not a result");
  }
  c.text = std::string(trim(line).substr(0, 200));
  return c;
}

std::expected<Thinking, std::string> parse_thinking(std::string_view line) {
  std::string_view rest;
  std::string_view ply = first_token(line, &rest);
  std::size_t digits = 0;
  while (digits < ply.size() && std::isdigit(static_cast<unsigned char>(ply[digits]))) ++digits;
  auto depth = to_number<int>(ply.substr(0, digits));
  if (!depth || digits + 1 < ply.size() ||
      (digits < ply.size() && std::isalnum(static_cast<unsigned char>(ply.back()))))
    return std::unexpected("ply " + quoted(ply) + " is not a number");
  std::string_view score_text = first_token(rest, &rest);
  std::string_view time_text = first_token(rest, &rest);
  std::string_view nodes_text = first_token(rest, &rest);
  auto score = to_number<std::int64_t>(score_text);
  if (!score) return std::unexpected("score " + quoted(score_text) + " is not a number");
  auto cs = to_number<std::int64_t>(time_text);
  if (!cs) return std::unexpected("time " + quoted(time_text) + " is not a number");
  auto nodes = to_number<std::uint64_t>(nodes_text);
  if (!nodes) return std::unexpected("nodes " + quoted(nodes_text) + " is not a number");
  Thinking t;
  t.eval.depth = *depth;
  constexpr std::int64_t MateBase = 100000;
  if (*score > MateBase && *score < 2 * MateBase) {
    t.eval.mate = static_cast<int>(*score - MateBase);
  } else if ((*score < -MateBase) && (*score > -2 * MateBase)) {
    t.eval.mate = -static_cast<int>(-*score - MateBase);
  } else {
    t.eval.score_cp = static_cast<int>(std::clamp<std::int64_t>(*score, -MateBase, MateBase));
  }
  // Centiseconds to milliseconds, held where the product fits (an engine may print anything).
  constexpr std::int64_t MaxCs = std::numeric_limits<std::int64_t>::max() / 10;
  t.eval.engine_time_ms = std::clamp<std::int64_t>(*cs, 0, MaxCs) * 10;
  t.eval.nodes = *nodes;
  t.pv = std::string(rest);
  return t;
}

std::string edit_commands(const chess::Position& pos, bool usermove) {
  std::string out;
  if (pos.side_to_move() == chess::Black) out += usermove ? "usermove b2b3\n" : "b2b3\n";
  out += "edit\n#\n";
  for (chess::Color c : {chess::White, chess::Black}) {
    if (c == chess::Black) out += "c\n";
    for (chess::Square s = 0; s < 64; ++s) {
      const chess::Piece p = pos.piece_on(s);
      if (p == chess::NoPiece || chess::color_of(p) != c) continue;
      out += "PNBRQK"[chess::type_of(p)];
      out += chess::square_name(s);
      out += '\n';
    }
  }
  out += ".\n";
  return out;
}

std::string level_command(const TimeControl& tc) {
  const std::int64_t base_s = std::max<std::int64_t>(0, tc.time_ms) / 1000;
  std::string out = "level " + std::to_string(std::max(0, tc.moves)) + " ";
  out += std::to_string(base_s / 60);
  if (base_s % 60 != 0) {
    char sec[8];
    std::snprintf(sec, sizeof sec, ":%02d", static_cast<int>(base_s % 60));
    out += sec;
  }
  out += " ";
  out += format_seconds(std::max<std::int64_t>(0, tc.increment_ms));
  return out;
}

std::string st_command(std::int64_t movetime_ms) {
  return "st " + std::to_string(std::max<std::int64_t>(1, movetime_ms / 1000));
}

std::int64_t centiseconds(std::int64_t ms) {
  return std::max<std::int64_t>(0, ms) / 10;
}

std::string move_text(const chess::Position& pos, chess::Move m, bool san, bool chess960) {
  if (san || (chess960 && m.kind() == chess::Move::Castling)) {
    std::string text = chess::to_san(pos, m);
    if (!san) {
      // Coordinate notation keeps no check mark; castling is the SAN word alone.
      while (!text.empty() && (text.back() == '+' || text.back() == '#')) text.pop_back();
    }
    return text;
  }
  return chess::to_uci(m, chess960);
}

std::expected<chess::Move, std::string> parse_engine_move(const chess::Position& pos,
                                                          std::string_view text) {
  text = trim(text);
  std::string coord(text);
  // e2-e4, e7-e8=q: coordinates with xboard's optional separators.
  std::erase_if(coord, [](char c) { return c == '-' || c == '='; });
  while (!coord.empty() && (coord.back() == '+' || coord.back() == '#')) coord.pop_back();
  if (coord.size() >= 4 && coord.size() <= 5) {
    std::string lower = coord;
    if (lower.size() == 5)
      lower[4] = static_cast<char>(std::tolower(static_cast<unsigned char>(lower[4])));
    if (auto m = chess::parse_uci(pos, lower)) return *m;
  }
  if (auto m = chess::parse_san(pos, text)) return *m;
  return std::unexpected(quoted(text) + " is not a legal move in coordinate notation or SAN");
}

}  // namespace knightly::runner::xboard

#include "engine/chess/pgn.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "engine/base/ascii.h"
#include "engine/chess/notation.h"

namespace knightly::chess {

namespace {

constexpr std::size_t MaxLineLength = 79;  // export lines have fewer than 80 characters

using base::is_space;
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_result(std::string_view w) {
  return w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*";
}
// Characters that end a movetext word (they start a token of their own).
bool is_delimiter(char c) {
  return c == '{' || c == '}' || c == '(' || c == ')' || c == ';' || c == '[' || c == '$';
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Tag strings: `\"` and `\\` are escapes; any other backslash is kept as written.
std::string unescape(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size() && (raw[i + 1] == '"' || raw[i + 1] == '\\')) ++i;
    out += raw[i];
  }
  return out;
}

// Appends comment text with every whitespace run (newlines included) collapsed to one space, so
// that a comment wrapped over several lines reads back as the text that was written.
void append_comment(std::string& dst, std::string_view text) {
  // Most comments are words with one space between them: appended whole.
  bool plain = !text.empty() && !is_space(text.front()) && !is_space(text.back());
  for (std::size_t i = 0; plain && i < text.size(); ++i)
    if (is_space(text[i])) plain = text[i] == ' ' && !is_space(text[i + 1]);
  if (plain) {
    if (!dst.empty()) dst += ' ';
    dst += text;
    return;
  }
  bool space = !dst.empty();
  for (char c : text) {
    if (is_space(c)) {
      space = !dst.empty();
      continue;
    }
    if (space) dst += ' ';
    space = false;
    dst += c;
  }
}

// Parses one game from text[pos...], advancing pos and line. Reading never stops at the first
// problem: a bad game is read to its end (termination marker or next tag section) so that the
// next game starts in the right place, and then reported.
class GameParser {
 public:
  GameParser(std::string_view text, std::size_t& pos, int& line, int game)
      : text_(text), pos_(pos), line_(line), game_number_(game) {}

  std::expected<PgnGame, PgnError> parse() {
    game_.line = line_;
    parse_tags();
    start_position();
    parse_movetext();
    game_.terminated = !termination_.empty();
    if (game_.terminated) {
      game_.result = termination_;
    } else if (std::string tag = game_.tag("Result"); is_result(tag)) {
      game_.result = tag;
    } else {
      game_.result = "*";
    }
    if (error_) return std::unexpected(std::move(*error_));
    game_.end = position_.game_end();
    game_.end_side = position_.side_to_move();
    return std::move(game_);
  }

  // Skips whitespace and `%` escape lines; false at the end of the text.
  static bool skip_blank(std::string_view text, std::size_t& pos, int& line) {
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '%' && (pos == 0 || text[pos - 1] == '\n')) {
        std::size_t eol = text.find('\n', pos);
        pos = eol == std::string_view::npos ? text.size() : eol;
      } else if (is_space(c)) {
        if (c == '\n') ++line;
        ++pos;
      } else {
        return true;
      }
    }
    return false;
  }

 private:
  bool skip_blank() { return skip_blank(text_, pos_, line_); }

  void fail(int line, std::string move, std::string message) {
    if (!error_) error_ = PgnError{game_number_, line, std::move(move), std::move(message)};
  }

  void skip_to_eol() {
    std::size_t eol = text_.find('\n', pos_);
    pos_ = eol == std::string_view::npos ? text_.size() : eol;
  }

  void parse_tags() {
    while (skip_blank() && text_[pos_] == '[') {
      // A tag name seen already starts the next game: this one has tags and no movetext.
      std::string_view name = peek_tag_name();
      if (std::any_of(game_.tags.begin(), game_.tags.end(),
                      [&](const auto& tag) { return tag.first == name; }))
        return;
      parse_tag();
    }
  }

  std::string_view peek_tag_name() const {
    std::size_t i = pos_ + 1;
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t')) ++i;
    std::size_t start = i;
    while (i < text_.size() && is_name_char(text_[i])) ++i;
    return text_.substr(start, i - start);
  }

  // `[Name "value"]`. Strict first (escapes per the standard); when that does not end in `"]`
  // (unescaped quotes inside, a value ending in a lone backslash), the value is everything from
  // the first quote to the `"]` that ends the line.
  void parse_tag() {
    const int tag_line = line_;
    const std::size_t line_start = pos_;
    ++pos_;
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    std::size_t name_start = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    std::string_view name = text_.substr(name_start, pos_ - name_start);
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    if (name.empty() || pos_ >= text_.size() || text_[pos_] != '"')
      return malformed_tag(tag_line, line_start);

    const std::size_t open = pos_;
    std::string value;
    std::size_t i = open + 1;
    bool closed = false;
    while (i < text_.size()) {
      char c = text_[i];
      if (c == '\\' && i + 1 < text_.size() && (text_[i + 1] == '"' || text_[i + 1] == '\\')) {
        value += text_[i + 1];
        i += 2;
        continue;
      }
      if (c == '\n' || c == '\r') break;
      if (c == '"') {
        closed = true;
        break;
      }
      value += c;
      ++i;
    }
    if (closed) {
      std::size_t k = i + 1;
      while (k < text_.size() && (text_[k] == ' ' || text_[k] == '\t')) ++k;
      if (k < text_.size() && text_[k] == ']') {
        pos_ = k + 1;
        game_.tags.emplace_back(std::string(name), std::move(value));
        return;
      }
    }
    std::size_t eol = text_.find('\n', open);
    if (eol == std::string_view::npos) eol = text_.size();
    std::string_view rest = text_.substr(open, eol - open);
    while (!rest.empty() && is_space(rest.back())) rest.remove_suffix(1);
    if (rest.size() >= 3 && rest.ends_with("\"]")) {
      game_.tags.emplace_back(std::string(name), unescape(rest.substr(1, rest.size() - 3)));
      pos_ = eol;
      return;
    }
    malformed_tag(tag_line, line_start);
  }

  void malformed_tag(int tag_line, std::size_t line_start) {
    pos_ = line_start;
    skip_to_eol();
    std::string_view text = trim(text_.substr(line_start, pos_ - line_start));
    fail(tag_line, "", "malformed tag pair: " + std::string(text));
  }

  void start_position() {
    std::string fen(trim(game_.tag("FEN")));
    if (fen.empty()) {
      game_.start_fen = std::string(Position::StartFen);
      return;
    }
    game_.start_fen = fen;
    auto pos = Position::from_fen(fen);
    if (!pos) {
      fail(line_, "",
           "bad FEN tag \"" + fen + "\": field " + std::to_string(pos.error().field) + ": " +
               pos.error().message);
      return;
    }
    position_ = std::move(*pos);
  }

  void attach_comment(std::string_view text) {
    if (depth_ > 0 || error_) return;
    append_comment(game_.moves.empty() ? game_.comment : game_.moves.back().comment, text);
  }

  void parse_movetext() {
    while (skip_blank()) {
      const char c = text_[pos_];
      if (c == '[') return;  // the next game's tag section (this one had no termination marker)
      if (c == '{') {
        std::size_t close = text_.find('}', pos_ + 1);
        if (close == std::string_view::npos) {
          fail(line_, "", "unterminated comment");
          pos_ = text_.size();
          return;
        }
        std::string_view body = text_.substr(pos_ + 1, close - pos_ - 1);
        line_ += static_cast<int>(std::count(body.begin(), body.end(), '\n'));
        attach_comment(body);
        pos_ = close + 1;
      } else if (c == ';') {
        std::size_t start = pos_ + 1;
        skip_to_eol();
        attach_comment(text_.substr(start, pos_ - start));
      } else if (c == '(') {
        if (depth_++ == 0) variation_line_ = line_;
        ++pos_;
      } else if (c == ')') {
        if (depth_ > 0) --depth_;
        ++pos_;
      } else if (c == '$') {
        ++pos_;
        while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
      } else {
        std::size_t start = pos_;
        if (c == '}') ++pos_;  // a stray closing brace is a token of its own
        while (pos_ < text_.size() && !is_space(text_[pos_]) && !is_delimiter(text_[pos_])) ++pos_;
        std::string_view word = text_.substr(start, pos_ - start);
        if (depth_ > 0) continue;
        if (is_result(word)) {
          termination_ = word;
          return;
        }
        if (!error_) play_word(word);
      }
    }
    if (depth_ > 0) fail(variation_line_, "", "unterminated variation");
  }

  // A movetext word: move number indications ("12.", "12...", glued as in "1.e4"), suffix
  // annotations ("!?") and SAN.
  void play_word(std::string_view w) {
    std::size_t digits = 0;
    while (digits < w.size() && is_digit(w[digits])) ++digits;
    if (digits > 0) {
      std::size_t dots = digits;
      while (dots < w.size() && w[dots] == '.') ++dots;
      if (dots == w.size()) return;              // "12", "12.", "12..."
      if (dots > digits) w.remove_prefix(dots);  // "1.e4"; "0-0" has no dot and stays
    }
    while (!w.empty() && w.front() == '.') w.remove_prefix(1);
    const std::string_view written = w;
    while (!w.empty() && (w.back() == '!' || w.back() == '?')) w.remove_suffix(1);
    if (w.empty()) return;  // "...", "!?" standing alone

    const int ply = static_cast<int>(game_.moves.size()) + 1;
    auto move = parse_san(position_, w);
    if (!move) {
      const bool white = position_.side_to_move() == White;
      fail(line_, std::string(written),
           "cannot play \"" + std::string(w) + "\" at ply " + std::to_string(ply) + " (move " +
               std::to_string(position_.fullmove_number()) + (white ? ". White" : "... Black") +
               "): " + move.error());
      return;
    }
    PgnMove pm;
    pm.move = *move;
    // The legal moves are generated only to tell a mate from a check.
    pm.san = to_san_unmarked(position_, *move);
    position_.do_move(*move);
    if (position_.in_check()) pm.san += position_.legal_moves().empty() ? '#' : '+';
    game_.moves.push_back(std::move(pm));
  }

  std::string_view text_;
  std::size_t& pos_;
  int& line_;
  int game_number_;
  PgnGame game_;
  Position position_;
  std::optional<PgnError> error_;
  std::string termination_;
  int depth_ = 0;
  int variation_line_ = 0;
};

}  // namespace

std::pair<bool, int> fen_side_and_number(std::string_view fen) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < fen.size()) {
    while (i < fen.size() && is_space(fen[i])) ++i;
    std::size_t start = i;
    while (i < fen.size() && !is_space(fen[i])) ++i;
    if (i > start) fields.push_back(fen.substr(start, i - start));
  }
  bool black = fields.size() > 1 && fields[1] == "b";
  int number = 1;
  if (fields.size() > 5) {
    int n = 0;
    bool ok = !fields[5].empty();
    for (char c : fields[5]) {
      if (!is_digit(c) || n > 100000)
        ok = false;
      else
        n = n * 10 + (c - '0');
    }
    if (ok && n >= 1) number = n;
  }
  return {black, number};
}

namespace {

// Greedy line filling: tokens separated by one space, a new line when the next token would
// make the line 80 characters or longer.
class LineWriter {
 public:
  explicit LineWriter(std::string& out) : out_(out) {}
  void token(std::string_view t) {
    if (column_ == 0) {
    } else if (column_ + 1 + t.size() <= MaxLineLength) {
      out_ += ' ';
      ++column_;
    } else {
      out_ += '\n';
      column_ = 0;
    }
    out_ += t;
    column_ += t.size();
  }
  // A comment as words, so that a long comment wraps like movetext. Braces would end or nest
  // the comment, so they become parentheses; a word starting with `%` is kept on the line of
  // the word before it, since `%` in the first column starts an escape line.
  void comment(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    auto flush = [&] {
      if (word.empty()) return;
      if (word.front() == '%' && !words.empty())
        words.back() += ' ' + word;
      else
        words.push_back(std::move(word));
      word.clear();
    };
    for (char c : text) {
      if (is_space(c)) {
        flush();
        continue;
      }
      word += c == '{' ? '(' : c == '}' ? ')' : c;
    }
    flush();
    if (words.empty()) return;
    words.front().insert(0, 1, '{');
    words.back() += '}';
    for (const auto& w : words) token(w);
  }

 private:
  std::string& out_;
  std::size_t column_ = 0;
};

}  // namespace

std::string PgnGame::tag(std::string_view name) const {
  for (const auto& [n, v] : tags)
    if (n == name) return v;
  return "";
}

std::string to_string(const PgnError& error) {
  std::string s = "game " + std::to_string(error.game) + ", line " + std::to_string(error.line);
  if (!error.move.empty()) s += ", move \"" + error.move + "\"";
  return s + ": " + error.message;
}

PgnReader::PgnReader(std::string_view text) : text_(text) {
  // A UTF-8 byte order mark is not part of the first tag.
  if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
}

std::optional<std::expected<PgnGame, PgnError>> PgnReader::next() {
  if (!GameParser::skip_blank(text_, pos_, line_)) return std::nullopt;
  ++game_;
  return GameParser(text_, pos_, line_, game_).parse();
}

PgnReadResult read_pgn(std::string_view text) {
  PgnReadResult result;
  PgnReader reader(text);
  while (auto game = reader.next()) {
    if (*game)
      result.games.push_back(std::move(**game));
    else
      result.errors.push_back(std::move(game->error()));
  }
  return result;
}

std::string escape_pgn_tag(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 2);
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    // Strings may not hold newlines or tabs.
    out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  }
  return out;
}

std::string write_pgn(const PgnGame& game) {
  return write_pgn_tags(game.tags) + write_pgn_movetext(game);
}

std::string write_pgn_tags(const std::vector<std::pair<std::string, std::string>>& tags) {
  std::string out;
  for (const auto& [name, value] : tags) {
    out += '[';
    out += name;
    out += " \"";
    out += escape_pgn_tag(value);
    out += "\"]\n";
  }
  if (!tags.empty()) out += '\n';
  return out;
}

std::string write_pgn_movetext(const PgnGame& game) {
  std::string out;
  // SAN is normally filled in; when it is not, it is computed by replaying the moves.
  std::optional<Position> replay;
  if (std::any_of(game.moves.begin(), game.moves.end(),
                  [](const PgnMove& m) { return m.san.empty(); })) {
    if (auto pos = Position::from_fen(game.start_fen)) replay = std::move(*pos);
  }

  auto [black, number] = fen_side_and_number(game.start_fen);
  LineWriter writer(out);
  writer.comment(game.comment);
  bool number_black = true;  // black's move gets "N..." first and after a comment
  for (const PgnMove& m : game.moves) {
    std::string san = m.san;
    if (san.empty()) san = replay ? to_san(*replay, m.move) : to_uci(m.move);
    if (replay) {
      if (replay->is_legal(m.move))
        replay->do_move(m.move);
      else
        replay.reset();
    }
    std::string unit = std::to_string(number);
    if (!black)
      unit += ". ";
    else if (number_black)
      unit += "... ";
    else
      unit.clear();
    writer.token(unit + san);  // a move number stays on the line of its move
    number_black = false;
    if (!trim(m.comment).empty()) {
      writer.comment(m.comment);
      number_black = true;
    }
    if (black) ++number;
    black = !black;
  }
  writer.token(is_result(game.result) ? game.result : "*");
  out += "\n\n";
  return out;
}

}  // namespace knightly::chess

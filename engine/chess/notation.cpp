#include "engine/chess/notation.h"

#include <cctype>

namespace knightly::chess {

namespace {

constexpr std::string_view SanPieces = "PNBRQK";

bool is_file(char c) {
  return c >= 'a' && c <= 'h';
}
bool is_rank(char c) {
  return c >= '1' && c <= '8';
}

int promo_type(char c) {
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case 'n':
      return Knight;
    case 'b':
      return Bishop;
    case 'r':
      return Rook;
    case 'q':
      return Queen;
    default:
      return -1;
  }
}

}  // namespace

std::string to_uci(Move m, bool chess960) {
  if (m.is_none()) return "0000";
  Square to = m.to();
  if (m.kind() == Move::Castling && !chess960 && file_of(m.from()) == 4 &&
      (file_of(to) == 0 || file_of(to) == 7))
    to = make_square(file_of(to) == 7 ? 6 : 2, rank_of(to));
  std::string s = square_name(m.from()) + square_name(to);
  if (m.kind() == Move::Promotion) s += "nbrq"[m.promotion() - Knight];
  return s;
}

std::expected<Move, std::string> parse_uci(const Position& pos, std::string_view text) {
  return parse_uci(pos, text, pos.legal_moves());
}

std::expected<Move, std::string> parse_uci(const Position& pos, std::string_view text,
                                           const MoveList& legal) {
  if (text.size() < 4 || text.size() > 5 || !is_file(text[0]) || !is_rank(text[1]) ||
      !is_file(text[2]) || !is_rank(text[3]) || (text.size() == 5 && promo_type(text[4]) < 0))
    return std::unexpected("malformed UCI move '" + std::string(text) + "'");
  Square from = make_square(text[0] - 'a', text[1] - '1');
  Square to = make_square(text[2] - 'a', text[3] - '1');
  int promo = text.size() == 5 ? promo_type(text[4]) : -1;
  for (Move m : legal) {
    if (m.from() != from || m.to() != to) continue;
    if (m.kind() == Move::Promotion) {
      if (promo < 0)
        return std::unexpected("illegal move '" + std::string(text) +
                               "': a promotion needs a piece letter");
      if (m.promotion() != promo) continue;
    } else if (promo >= 0) {
      continue;
    }
    return m;
  }
  // The king's own move to the g- or c-file for a castling (e1g1): no ordinary move matched.
  if (promo < 0 && (file_of(to) == 6 || file_of(to) == 2))
    for (Move m : legal)
      if (m.kind() == Move::Castling && m.from() == from &&
          make_square(m.to() > from ? 6 : 2, rank_of(from)) == to)
        return m;
  return std::unexpected("illegal move '" + std::string(text) + "' in " + pos.fen());
}

std::string to_san(const Position& pos, Move m) {
  const PieceType pt = type_of(pos.piece_on(m.from()));
  // Only a piece move (not a pawn's, not castling) needs the legal moves, to disambiguate.
  std::string s = to_san_unmarked(
      pos, m, pt != Pawn && m.kind() != Move::Castling ? pos.legal_moves() : MoveList());
  if (pos.gives_check(m)) {
    Position after = pos;
    after.do_move(m);
    s += after.legal_moves().empty() ? '#' : '+';
  }
  return s;
}

std::string to_san_unmarked(const Position& pos, Move m, const MoveList& legal) {
  std::string s;
  const Square from = m.from(), to = m.to();
  const PieceType pt = type_of(pos.piece_on(from));
  if (m.kind() == Move::Castling) {
    s = to > from ? "O-O" : "O-O-O";
  } else if (pt == Pawn) {
    if (pos.is_capture(m)) {
      s += char('a' + file_of(from));
      s += 'x';
    }
    s += square_name(to);
    if (m.kind() == Move::Promotion) {
      s += '=';
      s += SanPieces[m.promotion()];
    }
  } else {
    s += SanPieces[pt];
    // Disambiguate among legal moves of the same piece type to the same square only.
    bool clash = false, same_file = false, same_rank = false;
    for (Move o : legal) {
      if (o == m || o.to() != to || o.from() == from || o.kind() == Move::Castling) continue;
      if (type_of(pos.piece_on(o.from())) != pt) continue;
      clash = true;
      same_file |= file_of(o.from()) == file_of(from);
      same_rank |= rank_of(o.from()) == rank_of(from);
    }
    if (clash) {
      if (!same_file)
        s += char('a' + file_of(from));
      else if (!same_rank)
        s += char('1' + rank_of(from));
      else
        s += square_name(from);
    }
    if (pos.is_capture(m)) s += 'x';
    s += square_name(to);
  }
  return s;
}

std::expected<Move, std::string> parse_san(const Position& pos, std::string_view text) {
  const std::string original(text);
  // Trim whitespace and trailing annotation marks.
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() &&
         (std::isspace(static_cast<unsigned char>(text.back())) || text.back() == '+' ||
          text.back() == '#' || text.back() == '!' || text.back() == '?'))
    text.remove_suffix(1);
  if (text.size() > 4 && text.substr(text.size() - 4) == "e.p.") text.remove_suffix(4);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  if (text.empty()) return std::unexpected("empty move text '" + original + "'");

  const MoveList legal = pos.legal_moves();
  // Coordinate notation, as UCI engines, Knightly's notation=uci PGN and pgn-extract -Wlalg
  // write moves: from and to squares and a promotion letter in either case ("b1c3", "e1g1",
  // "e7e8Q"). SAN never has this shape, so it is read as coordinates.
  if ((text.size() == 4 || text.size() == 5) && is_file(text[0]) && is_rank(text[1]) &&
      is_file(text[2]) && is_rank(text[3]) && (text.size() == 4 || promo_type(text[4]) >= 0)) {
    std::string uci(text);
    if (uci.size() == 5)
      uci[4] = static_cast<char>(std::tolower(static_cast<unsigned char>(uci[4])));
    auto move = parse_uci(pos, uci, legal);
    if (move) return move;
    return std::unexpected("illegal move '" + original + "' in " + pos.fen());
  }
  if (text == "O-O" || text == "0-0" || text == "o-o" || text == "O-O-O" || text == "0-0-0" ||
      text == "o-o-o") {
    bool king_side = text.size() == 3;
    for (Move m : legal)
      if (m.kind() == Move::Castling && (m.to() > m.from()) == king_side) return m;
    return std::unexpected("illegal move '" + original + "': castling not allowed here");
  }

  // [piece] [from file] [from rank] [x:-] to-square [=promotion]
  std::string body;
  for (char c : text)
    if (c != 'x' && c != 'X' && c != '-' && c != ':') body += c;
  PieceType pt = Pawn;
  std::size_t i = 0;
  if (!body.empty() && SanPieces.find(body[0]) != std::string_view::npos && body[0] != 'P') {
    pt = PieceType(SanPieces.find(body[0]));
    i = 1;
  } else if (!body.empty() && body[0] == 'P') {
    i = 1;
  }
  int promo = -1;
  if (body.size() >= 2 && body[body.size() - 2] == '=') {
    promo = promo_type(body.back());
    if (promo < 0) return std::unexpected("malformed move '" + original + "': bad promotion piece");
    body.resize(body.size() - 2);
  } else if (!body.empty() && pt == Pawn && promo_type(body.back()) >= 0 && body.size() >= 3 &&
             is_rank(body[body.size() - 2])) {
    promo = promo_type(body.back());
    body.pop_back();
  }
  if (body.size() < i + 2 || !is_file(body[body.size() - 2]) || !is_rank(body.back()))
    return std::unexpected("malformed move '" + original + "'");
  Square to = make_square(body[body.size() - 2] - 'a', body.back() - '1');
  std::string_view dis = std::string_view(body).substr(i, body.size() - 2 - i);
  int from_file = -1, from_rank = -1;
  for (char c : dis) {
    if (is_file(c) && from_file < 0 && from_rank < 0)
      from_file = c - 'a';
    else if (is_rank(c) && from_rank < 0)
      from_rank = c - '1';
    else
      return std::unexpected("malformed move '" + original + "'");
  }
  Move found;
  int matches = 0;
  for (Move m : legal) {
    if (m.to() != to || m.kind() == Move::Castling) continue;
    if (type_of(pos.piece_on(m.from())) != pt) continue;
    if (from_file >= 0 && file_of(m.from()) != from_file) continue;
    if (from_rank >= 0 && rank_of(m.from()) != from_rank) continue;
    if (m.kind() == Move::Promotion) {
      if (promo < 0 || m.promotion() != promo) continue;
    } else if (promo >= 0) {
      continue;
    }
    if (matches++ == 0) found = m;
  }
  if (matches == 0) {
    if (pt == Pawn && (rank_of(to) == 0 || rank_of(to) == 7) && promo < 0)
      return std::unexpected("illegal move '" + original + "': promotion piece missing");
    return std::unexpected("illegal move '" + original + "' in " + pos.fen());
  }
  if (matches > 1) return std::unexpected("ambiguous move '" + original + "' in " + pos.fen());
  return found;
}

}  // namespace knightly::chess

#include "engine/chess/notation.h"

#include <cctype>
#include <optional>

#include "engine/chess/bitboard.h"

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

// Whether the side to move's king is safe after the piece on `from` goes to `to` (an
// ordinary move or a promotion: not castling, not en passant): no enemy piece but the one
// taken on `to` attacks the king's square once `from` is empty and `to` occupied.
bool king_safe_after(const Position& pos, Square from, Square to) {
  const Color us = pos.side_to_move();
  const Square ksq = from == pos.king_square(us) ? to : pos.king_square(us);
  const Bitboard occ = (pos.occupied() ^ square_bb(from)) | square_bb(to);
  return (pos.attackers_to(ksq, occ) & pos.pieces(~us) & ~square_bb(to)) == 0;
}

// The squares from which a piece of type `pt` of the side to move makes a legal ordinary
// move (or promotion) to `to`: what the legal moves to `to` are, without generating every
// legal move. nullopt for a pawn's move to the en-passant square (the caller generates).
std::optional<Bitboard> legal_origins(const Position& pos, PieceType pt, Square to) {
  const Color us = pos.side_to_move();
  if (pos.pieces(us) & square_bb(to)) return Bitboard(0);
  const Bitboard occ = pos.occupied();
  Bitboard from = 0;
  switch (pt) {
    case Pawn:
      if (to == pos.ep_square()) return std::nullopt;
      if (pos.piece_on(to) != NoPiece) {
        from = pawn_attacks(~us, to) & pos.pieces(us, Pawn);
      } else {
        const int back = us == White ? -8 : 8;
        const int one = to + back;
        if (one >= 0 && one < 64) {
          if (pos.piece_on(Square(one)) == make_piece(us, Pawn))
            from = square_bb(Square(one));
          else if (pos.piece_on(Square(one)) == NoPiece && rank_of(to) == (us == White ? 3 : 4) &&
                   pos.piece_on(Square(one + back)) == make_piece(us, Pawn))
            from = square_bb(Square(one + back));
        }
      }
      break;
    case Knight:
      from = knight_attacks(to) & pos.pieces(us, Knight);
      break;
    case Bishop:
      from = bishop_attacks(to, occ) & pos.pieces(us, Bishop);
      break;
    case Rook:
      from = rook_attacks(to, occ) & pos.pieces(us, Rook);
      break;
    case Queen:
      from = queen_attacks(to, occ) & pos.pieces(us, Queen);
      break;
    case King:
      from = king_attacks(to) & pos.pieces(us, King);
      break;
    default:
      return Bitboard(0);
  }
  Bitboard legal = 0;
  for (Bitboard b = from; b;) {
    const Square f = pop_lsb(b);
    if (king_safe_after(pos, f, to)) legal |= square_bb(f);
  }
  return legal;
}

// SAN without its mark, given the other squares from which a piece of the same type moves
// legally to the same square (`others`, for disambiguation).
std::string san_body(const Position& pos, Move m, Bitboard others) {
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
    others &= ~square_bb(from);
    if (others) {
      if (!(others & file_bb(file_of(from))))
        s += char('a' + file_of(from));
      else if (!(others & rank_bb(rank_of(from))))
        s += char('1' + rank_of(from));
      else
        s += square_name(from);
    }
    if (pos.is_capture(m)) s += 'x';
    s += square_name(to);
  }
  return s;
}

}  // namespace

std::string to_uci(Move m, bool chess960) {
  std::string text;
  append_uci(text, m, chess960);
  return text;
}

void append_uci(std::string& out, Move m, bool chess960) {
  if (m.is_none()) {
    out += "0000";
    return;
  }
  Square to = m.to();
  if (m.kind() == Move::Castling && !chess960 && file_of(m.from()) == 4 &&
      (file_of(to) == 0 || file_of(to) == 7))
    to = make_square(file_of(to) == 7 ? 6 : 2, rank_of(to));
  const Square from = m.from();
  const char text[5] = {char('a' + file_of(from)), char('1' + rank_of(from)),
                        char('a' + file_of(to)), char('1' + rank_of(to)),
                        m.kind() == Move::Promotion ? "nbrq"[m.promotion() - Knight] : '\0'};
  out.append(text, m.kind() == Move::Promotion ? 5 : 4);
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
  std::string s = to_san_unmarked(pos, m);
  if (pos.gives_check(m)) {
    Position after = pos;
    after.do_move(m);
    s += after.legal_moves().empty() ? '#' : '+';
  }
  return s;
}

std::string to_san_unmarked(const Position& pos, Move m) {
  const PieceType pt = type_of(pos.piece_on(m.from()));
  // Only a piece move (not a pawn's, not castling) needs the others, to disambiguate.
  if (pt == Pawn || pt == King || m.kind() == Move::Castling) return san_body(pos, m, 0);
  return san_body(pos, m, legal_origins(pos, pt, m.to()).value_or(0));
}

std::string to_san_unmarked(const Position& pos, Move m, const MoveList& legal) {
  const Square from = m.from(), to = m.to();
  const PieceType pt = type_of(pos.piece_on(from));
  Bitboard others = 0;
  if (pt != Pawn && m.kind() != Move::Castling)
    for (Move o : legal)
      if (o.to() == to && o.kind() != Move::Castling && type_of(pos.piece_on(o.from())) == pt)
        others |= square_bb(o.from());
  return san_body(pos, m, others);
}

namespace {

// parse_san, with the legal moves of `pos` when the caller has them (else nullptr: an
// ordinary move is found from the squares that reach its target, and the legal moves are
// generated only for coordinates, castling and en passant).
std::expected<Move, std::string> read_san(const Position& pos, std::string_view text,
                                          const MoveList* given) {
  std::optional<MoveList> generated;
  const auto legal = [&]() -> const MoveList& {
    if (given) return *given;
    if (!generated) generated = pos.legal_moves();
    return *generated;
  };
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

  // Coordinate notation, as UCI engines, Knightly's notation=uci PGN and pgn-extract -Wlalg
  // write moves: from and to squares and a promotion letter in either case ("b1c3", "e1g1",
  // "e7e8Q"). SAN never has this shape, so it is read as coordinates.
  if ((text.size() == 4 || text.size() == 5) && is_file(text[0]) && is_rank(text[1]) &&
      is_file(text[2]) && is_rank(text[3]) && (text.size() == 4 || promo_type(text[4]) >= 0)) {
    std::string uci(text);
    if (uci.size() == 5)
      uci[4] = static_cast<char>(std::tolower(static_cast<unsigned char>(uci[4])));
    auto move = parse_uci(pos, uci, legal());
    if (move) return move;
    return std::unexpected("illegal move '" + original + "' in " + pos.fen());
  }
  if (text == "O-O" || text == "0-0" || text == "o-o" || text == "O-O-O" || text == "0-0-0" ||
      text == "o-o-o") {
    bool king_side = text.size() == 3;
    for (Move m : legal())
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
  const auto match = [&](Move m) {
    if (from_file >= 0 && file_of(m.from()) != from_file) return;
    if (from_rank >= 0 && rank_of(m.from()) != from_rank) return;
    if (matches++ == 0) found = m;
  };
  const std::optional<Bitboard> origins = given ? std::nullopt : legal_origins(pos, pt, to);
  if (origins) {
    // The legal moves to `to` of that piece type, as the list below would have them: a
    // pawn's to the last rank are promotions only.
    const bool last_rank = pt == Pawn && rank_of(to) == (pos.side_to_move() == White ? 7 : 0);
    if (last_rank == (promo >= 0))
      for (Bitboard b = *origins; b;) {
        const Square from = pop_lsb(b);
        match(last_rank ? Move(from, to, Move::Promotion, PieceType(promo)) : Move(from, to));
      }
  }
  const MoveList none;
  for (Move m : origins ? none : legal()) {
    if (m.to() != to || m.kind() == Move::Castling) continue;
    if (type_of(pos.piece_on(m.from())) != pt) continue;
    if (m.kind() == Move::Promotion) {
      if (promo < 0 || m.promotion() != promo) continue;
    } else if (promo >= 0) {
      continue;
    }
    match(m);
  }
  if (matches == 0) {
    if (pt == Pawn && (rank_of(to) == 0 || rank_of(to) == 7) && promo < 0)
      return std::unexpected("illegal move '" + original + "': promotion piece missing");
    return std::unexpected("illegal move '" + original + "' in " + pos.fen());
  }
  if (matches > 1) return std::unexpected("ambiguous move '" + original + "' in " + pos.fen());
  return found;
}

}  // namespace

std::expected<Move, std::string> parse_san(const Position& pos, std::string_view text) {
  return read_san(pos, text, nullptr);
}

std::expected<Move, std::string> parse_san(const Position& pos, std::string_view text,
                                           const MoveList& legal) {
  return read_san(pos, text, &legal);
}

}  // namespace knightly::chess

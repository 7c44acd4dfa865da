#include "engine/chess/position.h"

#include <algorithm>
#include <charconv>

#include "engine/chess/bitboard.h"
#include "engine/chess/movegen.h"
#include "engine/chess/zobrist.h"

namespace knightly::chess {

namespace {

// Castling rights that survive a move touching each square.
constexpr std::array<std::uint8_t, 64> CastlingMask = [] {
  std::array<std::uint8_t, 64> m{};
  m.fill(AllCastling);
  m[4] = AllCastling & ~(WhiteOO | WhiteOOO);
  m[7] = AllCastling & ~WhiteOO;
  m[0] = AllCastling & ~WhiteOOO;
  m[60] = AllCastling & ~(BlackOO | BlackOOO);
  m[63] = AllCastling & ~BlackOO;
  m[56] = AllCastling & ~BlackOOO;
  return m;
}();

constexpr std::array<Key, 16> CastlingKeys = [] {
  std::array<Key, 16> k{};
  for (int cr = 0; cr < 16; ++cr)
    for (int bit = 0; bit < 4; ++bit)
      if (cr & (1 << bit)) k[cr] ^= zobrist::castling_key(bit);
  return k;
}();

constexpr std::string_view PieceChars = "PNBRQKpnbrqk";

std::vector<std::string_view> split_fields(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

bool parse_counter(std::string_view text, int& out) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size();
}

std::unexpected<FenError> fen_error(int field, std::string message) {
  return std::unexpected(FenError{field, std::move(message)});
}

const char* color_name(Color c) {
  return c == White ? "white" : "black";
}

}  // namespace

Position::Position() {
  *this = *from_fen(StartFen);
}

void Position::put_piece(Piece p, Square s) {
  board_[s] = p;
  by_color_[color_of(p)] |= square_bb(s);
  by_type_[type_of(p)] |= square_bb(s);
}

void Position::remove_piece(Square s) {
  Piece p = board_[s];
  by_color_[color_of(p)] ^= square_bb(s);
  by_type_[type_of(p)] ^= square_bb(s);
  board_[s] = NoPiece;
}

void Position::move_piece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard ft = square_bb(from) | square_bb(to);
  by_color_[color_of(p)] ^= ft;
  by_type_[type_of(p)] ^= ft;
  board_[from] = NoPiece;
  board_[to] = p;
}

std::expected<Position, FenError> Position::from_fen(std::string_view fen) {
  auto fields = split_fields(fen);
  if (fields.empty()) return fen_error(1, "placement: empty FEN");
  if (fields.size() < 4) {
    static const char* names[] = {"placement", "side to move", "castling", "en passant"};
    return fen_error(int(fields.size()) + 1, std::string(names[fields.size()]) + ": field missing");
  }
  if (fields.size() == 5)
    return fen_error(6, "fullmove: field missing (give both counters or neither)");
  if (fields.size() > 6)
    return fen_error(
        6, "fullmove: unexpected text after the sixth field: '" + std::string(fields[6]) + "'");

  Position pos{EmptyTag{}};
  pos.board_.fill(NoPiece);
  pos.by_color_.fill(0);
  pos.by_type_.fill(0);
  pos.states_.clear();
  pos.states_.reserve(256);

  // Field 1: placement, rank 8 first.
  std::string_view placement = fields[0];
  int rank = 7, file = 0;
  bool last_digit = false;
  for (std::size_t i = 0; i <= placement.size(); ++i) {
    char c = i < placement.size() ? placement[i] : '/';
    if (c == '/') {
      if (file != 8)
        return fen_error(1, "placement: rank " + std::to_string(rank + 1) + " has " +
                                std::to_string(file) + " squares, expected 8");
      if (i == placement.size()) break;
      if (--rank < 0) return fen_error(1, "placement: more than 8 ranks");
      file = 0;
      last_digit = false;
      continue;
    }
    if (c >= '1' && c <= '8') {
      if (last_digit)
        return fen_error(1, "placement: two digits in a row in rank " + std::to_string(rank + 1));
      file += c - '0';
      last_digit = true;
      if (file > 8)
        return fen_error(
            1, "placement: rank " + std::to_string(rank + 1) + " has more than 8 squares");
      continue;
    }
    auto idx = PieceChars.find(c);
    if (idx == std::string_view::npos)
      return fen_error(1, std::string("placement: bad piece letter '") + c + "' in rank " +
                              std::to_string(rank + 1));
    if (file >= 8)
      return fen_error(1,
                       "placement: rank " + std::to_string(rank + 1) + " has more than 8 squares");
    Piece p = Piece(idx);
    if (type_of(p) == Pawn && (rank == 0 || rank == 7))
      return fen_error(1, "placement: pawn on rank " + std::to_string(rank + 1));
    pos.put_piece(p, make_square(file, rank));
    ++file;
    last_digit = false;
  }
  if (rank != 0)
    return fen_error(1, "placement: " + std::to_string(8 - rank) + " ranks, expected 8");
  for (Color c : {White, Black}) {
    int kings = popcount(pos.pieces(c, King));
    if (kings != 1)
      return fen_error(1, std::string("placement: ") + color_name(c) + " has " +
                              std::to_string(kings) + " kings, expected exactly one");
    if (popcount(pos.pieces(c, Pawn)) > 8)
      return fen_error(1, std::string("placement: ") + color_name(c) + " has more than 8 pawns");
    if (popcount(pos.pieces(c)) > 16)
      return fen_error(1, std::string("placement: ") + color_name(c) + " has more than 16 pieces");
  }

  // Field 2: side to move.
  if (fields[1] == "w")
    pos.side_ = White;
  else if (fields[1] == "b")
    pos.side_ = Black;
  else
    return fen_error(2, "side to move: expected 'w' or 'b', got '" + std::string(fields[1]) + "'");
  {
    Color them = ~pos.side_;
    if (pos.attackers_to(pos.king_square(them), pos.occupied()) & pos.pieces(pos.side_))
      return fen_error(2, std::string("side to move: the side not to move (") + color_name(them) +
                              ") is in check");
  }

  // Field 3: castling rights, which the board must allow.
  StateInfo st;
  if (fields[2] != "-") {
    for (char c : fields[2]) {
      std::uint8_t right;
      Color col;
      Square rook_sq;
      switch (c) {
        case 'K':
          right = WhiteOO, col = White, rook_sq = 7;
          break;
        case 'Q':
          right = WhiteOOO, col = White, rook_sq = 0;
          break;
        case 'k':
          right = BlackOO, col = Black, rook_sq = 63;
          break;
        case 'q':
          right = BlackOOO, col = Black, rook_sq = 56;
          break;
        default:
          return fen_error(3,
                           std::string("castling: bad character '") + c + "' (expected KQkq or -)");
      }
      if (st.castling & right)
        return fen_error(3, std::string("castling: right '") + c + "' given twice");
      Square king_sq = col == White ? 4 : 60;
      if (pos.board_[king_sq] != make_piece(col, King))
        return fen_error(3, std::string("castling: right '") + c + "' contradicts the board: " +
                                color_name(col) + " king is not on " + square_name(king_sq));
      if (pos.board_[rook_sq] != make_piece(col, Rook))
        return fen_error(3, std::string("castling: right '") + c + "' contradicts the board: no " +
                                color_name(col) + " rook on " + square_name(rook_sq));
      st.castling |= right;
    }
    if (st.castling == 0) return fen_error(3, "castling: empty field");
  }

  // Field 4: en passant target, possible only right after a double push.
  if (fields[3] != "-") {
    std::string_view e = fields[3];
    if (e.size() != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' || e[1] > '8')
      return fen_error(4, "en passant: '" + std::string(e) + "' is not a square");
    Square ep = make_square(e[0] - 'a', e[1] - '1');
    int want_rank = pos.side_ == White ? 5 : 2;
    if (rank_of(ep) != want_rank)
      return fen_error(4, "en passant: impossible square " + std::string(e) + " (must be on rank " +
                              std::to_string(want_rank + 1) + " with " + color_name(pos.side_) +
                              " to move)");
    int up = pos.side_ == White ? 8 : -8;  // from ep towards the side to move's pawns' goal
    Square pushed = Square(ep - up), origin = Square(ep + up);
    if (pos.board_[pushed] != make_piece(~pos.side_, Pawn))
      return fen_error(4, "en passant: impossible square " + std::string(e) + " (no " +
                              color_name(~pos.side_) + " pawn on " + square_name(pushed) + ")");
    if (pos.board_[ep] != NoPiece || pos.board_[origin] != NoPiece)
      return fen_error(4, "en passant: impossible square " + std::string(e) + " (" +
                              square_name(ep) + " and " + square_name(origin) +
                              " must be empty after a double push)");
    // Kept only if a pawn of the side to move attacks it (Polyglot's rule for the key).
    if (pawn_attacks(~pos.side_, ep) & pos.pieces(pos.side_, Pawn)) st.ep = ep;
  }

  // Fields 5 and 6: counters (EPD omits them).
  if (fields.size() == 6) {
    if (!parse_counter(fields[4], st.halfmove))
      return fen_error(
          5, "halfmove clock: '" + std::string(fields[4]) + "' is not a non-negative integer");
    if (!parse_counter(fields[5], pos.fullmove_) || pos.fullmove_ < 1)
      return fen_error(
          6, "fullmove number: '" + std::string(fields[5]) + "' is not a positive integer");
  } else {
    st.halfmove = 0;
    pos.fullmove_ = 1;
  }
  pos.states_.push_back(st);
  pos.states_.back().key = pos.compute_key();
  pos.states_.back().rep_key = pos.states_.back().key;
  pos.states_.back().checkers = pos.compute_checkers();
  if (st.ep != NoSquare && !pos.ep_capture_legal())
    pos.states_.back().rep_key ^= zobrist::en_passant_key(file_of(st.ep));
  return pos;
}

std::string Position::fen() const {
  std::string s;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      Piece p = board_[make_square(f, r)];
      if (p == NoPiece) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      s += PieceChars[p];
    }
    if (empty) s += char('0' + empty);
    if (r) s += '/';
  }
  s += side_ == White ? " w " : " b ";
  std::uint8_t cr = castling_rights();
  if (!cr) s += '-';
  if (cr & WhiteOO) s += 'K';
  if (cr & WhiteOOO) s += 'Q';
  if (cr & BlackOO) s += 'k';
  if (cr & BlackOOO) s += 'q';
  s += ' ';
  s += ep_square() != NoSquare && ep_capture_legal() ? square_name(ep_square()) : "-";
  s += ' ' + std::to_string(halfmove_clock()) + ' ' + std::to_string(fullmove_);
  return s;
}

bool Position::ep_capture_legal() const {
  Square ep = ep_square();
  if (ep == NoSquare) return false;
  Bitboard attackers = pawn_attacks(~side_, ep) & pieces(side_, Pawn);
  while (attackers) {
    Square from = pop_lsb(attackers);
    bool safe = side_ == White ? movegen::en_passant_safe<White>(*this, from, ep)
                               : movegen::en_passant_safe<Black>(*this, from, ep);
    if (safe) return true;
  }
  return false;
}

namespace {

// The search's generator: slider lookups by PEXT where this CPU does it fast.
template <movegen::Mode M>
MoveList generate_list(const Position& pos) {
  MoveList list;
  movegen::ListSink sink{list};
  const bool white = pos.side_to_move() == White;
  if (detail::tables.fast_pext) {
    if (white)
      movegen::generate<White, M, Lookup::Pext>(pos, sink);
    else
      movegen::generate<Black, M, Lookup::Pext>(pos, sink);
  } else {
    if (white)
      movegen::generate<White, M>(pos, sink);
    else
      movegen::generate<Black, M>(pos, sink);
  }
  return list;
}

}  // namespace

MoveList Position::legal_moves() const {
  return generate_list<movegen::Mode::All>(*this);
}

MoveList Position::legal_captures() const {
  return generate_list<movegen::Mode::Captures>(*this);
}

bool Position::is_legal(Move m) const {
  return legal_moves().contains(m);
}

void Position::do_move(Move m) {
  // The new state is built in place on the stack of states.
  if (states_.size() == states_.capacity()) states_.reserve(2 * states_.size());
  StateInfo& st = states_.emplace_back();
  const StateInfo& prev = (&st)[-1];
  st.key = prev.key ^ zobrist::turn_key();
  st.castling = prev.castling;
  st.halfmove = prev.halfmove + 1;
  st.plies_from_null = prev.plies_from_null + 1;
  st.move = m;
  if (prev.ep != NoSquare) st.key ^= zobrist::en_passant_key(file_of(prev.ep));

  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Piece pc = board_[from];
  if (m.kind() == Move::Castling) {
    Square rfrom = to > from ? Square(from + 3) : Square(from - 4);
    Square rto = to > from ? Square(from + 1) : Square(from - 1);
    Piece rook = board_[rfrom];
    move_piece(from, to);
    move_piece(rfrom, rto);
    st.key ^= zobrist::piece_key(pc, from) ^ zobrist::piece_key(pc, to) ^
              zobrist::piece_key(rook, rfrom) ^ zobrist::piece_key(rook, rto);
  } else {
    // The board updated from what is known here (colours, pieces), not read back from it.
    Square capsq = m.kind() == Move::EnPassant ? Square(us == White ? to - 8 : to + 8) : to;
    Piece cap = board_[capsq];
    const PieceType pt = type_of(pc);
    const Bitboard to_bb = square_bb(to), from_to = square_bb(from) | to_bb;
    if (cap != NoPiece) {
      const Bitboard cap_bb = square_bb(capsq);
      by_color_[them] ^= cap_bb;
      by_type_[type_of(cap)] ^= cap_bb;
      board_[capsq] = NoPiece;  // `to` is written again below; this is for en passant
      st.key ^= zobrist::piece_key(cap, capsq);
      st.captured = cap;
      st.halfmove = 0;
    }
    by_color_[us] ^= from_to;
    by_type_[pt] ^= from_to;
    board_[from] = NoPiece;
    board_[to] = pc;
    st.key ^= zobrist::piece_key(pc, from) ^ zobrist::piece_key(pc, to);
    if (pt == Pawn) {
      st.halfmove = 0;
      if (m.kind() == Move::Promotion) {
        Piece promo = make_piece(us, m.promotion());
        by_type_[Pawn] ^= to_bb;
        by_type_[m.promotion()] ^= to_bb;
        board_[to] = promo;
        st.key ^= zobrist::piece_key(pc, to) ^ zobrist::piece_key(promo, to);
      } else if ((from ^ to) == 16) {
        Square ep = Square((from + to) / 2);
        if (pawn_attacks(us, ep) & pieces(them, Pawn)) {
          st.ep = ep;
          st.key ^= zobrist::en_passant_key(file_of(ep));
        }
      }
    }
  }
  std::uint8_t cr = st.castling & CastlingMask[from] & CastlingMask[to];
  st.key ^= CastlingKeys[st.castling] ^ CastlingKeys[cr];
  st.castling = cr;
  side_ = them;
  if (us == Black) ++fullmove_;
  // Checkers: the moved piece giving direct check, and our sliders behind `from` giving a
  // discovered one. Only sliders on the king's lines (empty-board tables) are looked at, each
  // with one between-table test: no attack lookup. Castling and en passant move or remove a
  // second piece: computed in full.
  if (m.kind() == Move::Normal || m.kind() == Move::Promotion) {
    const Square ksq = king_square(them);
    const Bitboard occ = occupied();
    const Bitboard rook_lines = rook_pseudo_attacks(ksq), bishop_lines = bishop_pseudo_attacks(ksq);
    // Our sliders on the king's lines of their kind; between_bb(ksq, s) ends at s, so a
    // slider checks when that is all it holds.
    Bitboard sliders = (((pieces(Rook) | pieces(Queen)) & rook_lines) |
                        ((pieces(Bishop) | pieces(Queen)) & bishop_lines)) &
                       pieces(us);
    const Bitboard to_bb = square_bb(to), from_bb = square_bb(from);
    Bitboard chk = 0;
    switch (type_of(board_[to])) {
      case Pawn: chk = pawn_attacks(them, ksq) & to_bb; break;
      case Knight: chk = knight_attacks(ksq) & to_bb; break;
      default: break;  // a slider is among `sliders` if it can check; a king never checks
    }
    // Sliders that can check now: the one that moved, and those `from` stood in front of.
    sliders &= to_bb | ((rook_lines | bishop_lines) & from_bb ? ~Bitboard(0) : 0);
    while (sliders) {
      const Square s = pop_lsb(sliders);
      const Bitboard between = between_bb(ksq, s);
      if ((square_bb(s) == to_bb || (between & from_bb)) && (between & occ) == square_bb(s)) chk |= square_bb(s);
    }
    st.checkers = chk;
  } else {
    st.checkers = compute_checkers();
  }
  st.rep_key = st.key;
  if (st.ep != NoSquare && !ep_capture_legal()) st.rep_key ^= zobrist::en_passant_key(file_of(st.ep));
}

void Position::undo_move() {
  const StateInfo& st = states_.back();
  const Move m = st.move;
  const Color us = ~side_;
  const Square from = m.from(), to = m.to();
  side_ = us;
  if (us == Black) --fullmove_;
  if (m.kind() == Move::Castling) {
    Square rfrom = to > from ? Square(from + 3) : Square(from - 4);
    Square rto = to > from ? Square(from + 1) : Square(from - 1);
    move_piece(to, from);
    move_piece(rto, rfrom);
  } else {
    const Bitboard to_bb = square_bb(to), from_to = square_bb(from) | to_bb;
    Piece pc = board_[to];
    if (m.kind() == Move::Promotion) {
      by_type_[type_of(pc)] ^= to_bb;
      by_type_[Pawn] ^= to_bb;
      pc = make_piece(us, Pawn);
    }
    by_color_[us] ^= from_to;
    by_type_[type_of(pc)] ^= from_to;
    board_[from] = pc;
    board_[to] = NoPiece;
    if (st.captured != NoPiece) {
      const Square capsq = m.kind() == Move::EnPassant ? Square(us == White ? to - 8 : to + 8) : to;
      const Bitboard cap_bb = square_bb(capsq);
      by_color_[~us] ^= cap_bb;
      by_type_[type_of(st.captured)] ^= cap_bb;
      board_[capsq] = st.captured;
    }
  }
  states_.pop_back();
}

void Position::do_null_move() {
  const StateInfo& prev = states_.back();
  StateInfo st;
  st.key = prev.key ^ zobrist::turn_key();
  if (prev.ep != NoSquare) st.key ^= zobrist::en_passant_key(file_of(prev.ep));
  st.rep_key = st.key;
  st.castling = prev.castling;
  st.halfmove = prev.halfmove + 1;
  st.plies_from_null = 0;
  st.move = Move::none();
  side_ = ~side_;
  if (side_ == White) ++fullmove_;
  states_.push_back(st);
}

void Position::undo_null_move() {
  if (side_ == White) --fullmove_;
  side_ = ~side_;
  states_.pop_back();
}

Square Position::king_square(Color c) const {
  return lsb(pieces(c, King));
}

Bitboard Position::attackers_to(Square s, Bitboard occ) const {
  return (pawn_attacks(White, s) & pieces(Black, Pawn)) |
         (pawn_attacks(Black, s) & pieces(White, Pawn)) | (knight_attacks(s) & pieces(Knight)) |
         (king_attacks(s) & pieces(King)) |
         (rook_attacks(s, occ) & (pieces(Rook) | pieces(Queen))) |
         (bishop_attacks(s, occ) & (pieces(Bishop) | pieces(Queen)));
}

Bitboard Position::compute_checkers() const {
  return attackers_to(king_square(side_), occupied()) & pieces(~side_);
}

bool Position::is_capture(Move m) const {
  return m.kind() == Move::EnPassant || (m.kind() != Move::Castling && board_[m.to()] != NoPiece);
}

Piece Position::captured_piece(Move m) const {
  if (m.kind() == Move::EnPassant) return make_piece(~side_, Pawn);
  if (m.kind() == Move::Castling) return NoPiece;
  return board_[m.to()];
}

bool Position::gives_check(Move m) const {
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to(), ksq = king_square(them);
  Bitboard occ = occupied() ^ square_bb(from);
  Square piece_sq = to;
  PieceType pt = type_of(board_[from]);
  if (m.kind() == Move::Castling) {
    Square rfrom = to > from ? Square(from + 3) : Square(from - 4);
    piece_sq = to > from ? Square(from + 1) : Square(from - 1);
    occ = (occ ^ square_bb(rfrom)) | square_bb(to) | square_bb(piece_sq);
    pt = Rook;
  } else {
    occ |= square_bb(to);
    if (m.kind() == Move::EnPassant) occ ^= square_bb(Square(us == White ? to - 8 : to + 8));
    if (m.kind() == Move::Promotion) pt = m.promotion();
  }
  // Direct check by the moved piece (the rook, for castling).
  Bitboard direct = 0;
  switch (pt) {
    case Pawn:
      direct = pawn_attacks(us, piece_sq);
      break;
    case Knight:
      direct = knight_attacks(piece_sq);
      break;
    case Bishop:
      direct = bishop_attacks(piece_sq, occ);
      break;
    case Rook:
      direct = rook_attacks(piece_sq, occ);
      break;
    case Queen:
      direct = queen_attacks(piece_sq, occ);
      break;
    default:
      break;
  }
  if (direct & square_bb(ksq)) return true;
  // Discovered check by our sliders, with the captured piece (if any) gone.
  Bitboard ours = pieces(us) & ~square_bb(from);
  if (m.kind() == Move::Castling)
    ours &= ~square_bb(to > from ? Square(from + 3) : Square(from - 4));
  Bitboard rq = (pieces(Rook) | pieces(Queen)) & ours;
  Bitboard bq = (pieces(Bishop) | pieces(Queen)) & ours;
  return (rook_attacks(ksq, occ) & rq) || (bishop_attacks(ksq, occ) & bq);
}


Key Position::compute_key() const {
  Key k = 0;
  for (Square s = 0; s < 64; ++s)
    if (board_[s] != NoPiece) k ^= zobrist::piece_key(board_[s], s);
  k ^= CastlingKeys[castling_rights()];
  if (ep_square() != NoSquare) k ^= zobrist::en_passant_key(file_of(ep_square()));
  if (side_ == White) k ^= zobrist::turn_key();
  return k;
}

int Position::fullmove_number() const {
  return fullmove_;
}
int Position::game_ply() const {
  return int(states_.size()) - 1;
}

int Position::repetition_count() const {
  const int last = int(states_.size()) - 1;
  const int limit = std::min({states_.back().halfmove, states_.back().plies_from_null, last});
  const Key k = states_.back().rep_key;
  int count = 1;
  for (int d = 2; d <= limit; d += 2)
    if (states_[last - d].rep_key == k) ++count;
  return count;
}

bool Position::is_draw_by_repetition_in_search(int ply_from_root) const {
  const int last = int(states_.size()) - 1;
  const int limit = std::min({states_.back().halfmove, states_.back().plies_from_null, last});
  const Key k = states_.back().rep_key;
  int count = 0;
  for (int d = 4; d <= limit; d += 2) {
    if (states_[last - d].rep_key != k) continue;
    // A repetition inside the search tree is a draw at once; one from before the root
    // needs a third occurrence.
    if (d < ply_from_root) return true;
    if (++count == 2) return true;
  }
  return false;
}

bool Position::insufficient_minor_material() const {
  Bitboard minors = pieces(Knight) | pieces(Bishop);
  if (!more_than_one(minors)) return true;  // K v K, K+minor v K
  // Only bishops, all on squares of one colour: no mate is possible.
  if (pieces(Knight)) return false;
  Bitboard b = pieces(Bishop);
  return (b & DarkSquares) == b || (b & ~DarkSquares) == b;
}

GameEnd Position::game_end() const {
  movegen::CountSink sink;
  movegen::generate<movegen::Mode::All>(*this, sink);
  return game_end_with(sink.count);
}

GameEnd Position::game_end(const MoveList& legal) const {
  return game_end_with(legal.size());
}

GameEnd Position::game_end_with(std::size_t legal_moves) const {
  if (legal_moves == 0) return in_check() ? GameEnd::Checkmate : GameEnd::Stalemate;
  if (insufficient_material()) return GameEnd::InsufficientMaterial;
  if (repetition_count() >= 3) return GameEnd::ThreefoldRepetition;
  if (halfmove_clock() >= 100) return GameEnd::FiftyMoveRule;
  return GameEnd::None;
}

}  // namespace knightly::chess

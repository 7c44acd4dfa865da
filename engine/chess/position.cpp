#include "engine/chess/position.h"

#include <algorithm>

#include "engine/chess/bitboard.h"
#include "engine/chess/movegen.h"
#include "engine/chess/zobrist.h"

namespace knightly::chess {

namespace {

constexpr std::array<Key, 16> CastlingKeys = [] {
  std::array<Key, 16> k{};
  for (int cr = 0; cr < 16; ++cr)
    for (int bit = 0; bit < 4; ++bit)
      if (cr & (1 << bit)) k[cr] ^= zobrist::castling_key(bit);
  return k;
}();

// Where castling puts the king and the rook: g- and f-file on the king side, c and d on the
// queen side, in Chess960 as in chess.
inline Square castled_king(Square king, Square rook) {
  return make_square(rook > king ? 6 : 2, rank_of(king));
}
inline Square castled_rook(Square king, Square rook) {
  return make_square(rook > king ? 5 : 3, rank_of(king));
}

// The squares from a to b on one rank, both included.
Bitboard rank_span(Square a, Square b) {
  Bitboard r = 0;
  for (Square s = std::min(a, b); s <= std::max(a, b); ++s) r |= square_bb(s);
  return r;
}

}  // namespace

Position::Position() {
  // Parsed once; a copy keeps only the states it holds, so room for a game's is made again.
  static const Position initial = *from_fen(StartFen);
  *this = initial;
  states_.reserve(256);
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

void Position::add_castling_right(int index, Square rook) {
  const Color c = Color(index / 2);
  const Square king = king_square(c);
  const Square kto = castled_king(king, rook), rto = castled_rook(king, rook);
  castling_rook_[index] = rook;
  castling_empty_[index] =
      (rank_span(king, kto) | rank_span(rook, rto)) & ~(square_bb(king) | square_bb(rook));
  // The destination always: a king that stays put may lose the castling rook's shield.
  castling_king_path_[index] = (rank_span(king, kto) & ~square_bb(king)) | square_bb(kto);
  castling_mask_[king] &= std::uint8_t(~(castling_right(c, true) | castling_right(c, false)));
  castling_mask_[rook] &= std::uint8_t(~(1 << index));
  if (file_of(king) != 4 || file_of(rook) != (index % 2 == 0 ? 7 : 0)) chess960_layout_ = true;
}

bool Position::chess960_castling() const {
  const std::uint8_t cr = castling_rights();
  for (int i = 0; i < 4; ++i) {
    if (!(cr & (1 << i))) continue;
    const Square king = king_square(Color(i / 2)), rook = castling_rook_[i];
    if (file_of(king) != 4 || (file_of(rook) != 0 && file_of(rook) != 7)) return true;
  }
  return false;
}

bool Position::ep_capture_legal() const {
  Square ep = ep_square();
  if (ep == NoSquare) return false;
  Bitboard attackers = pawn_attacks(~side_, ep) & pieces(side_, Pawn);
  while (attackers) {
    Square from = pop_lsb(attackers);
    // By the lookups of this CPU's kind, the one table filled at start-up.
    const bool pext = detail::tables.fast_pext;
    bool safe = side_ == White
                    ? (pext ? movegen::en_passant_safe<White, Lookup::Pext>(*this, from, ep)
                            : movegen::en_passant_safe<White, Lookup::Magic>(*this, from, ep))
                    : (pext ? movegen::en_passant_safe<Black, Lookup::Pext>(*this, from, ep)
                            : movegen::en_passant_safe<Black, Lookup::Magic>(*this, from, ep));
    if (safe) return true;
  }
  return false;
}

namespace {

// The search's generator: slider lookups by PEXT where this CPU does it fast, and the
// castling squares as constants unless the position has a Chess960 layout.
template <movegen::Mode M, bool Chess960>
MoveList generate_list(const Position& pos) {
  MoveList list;
  movegen::ListSink sink{list};
  movegen::generate_for_cpu<M, Chess960>(pos, sink);
  return list;
}

template <movegen::Mode M>
MoveList generate_list(const Position& pos) {
  return pos.chess960_layout() ? generate_list<M, true>(pos) : generate_list<M, false>(pos);
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
  if (m.kind() == Move::Castling) [[unlikely]]
    return finish_castling(st, from, to);
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
  std::uint8_t cr = st.castling & castling_mask_[from] & castling_mask_[to];
  st.key ^= CastlingKeys[st.castling] ^ CastlingKeys[cr];
  st.castling = cr;
  side_ = them;
  if (us == Black) ++fullmove_;
  // Checkers: the moved piece giving direct check, and our sliders behind `from` giving a
  // discovered one. Only sliders on the king's lines (empty-board tables) are looked at, each
  // with one between-table test: no attack lookup. En passant removes a second piece:
  // computed in full.
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
      case Pawn:
        chk = pawn_attacks(them, ksq) & to_bb;
        break;
      case Knight:
        chk = knight_attacks(ksq) & to_bb;
        break;
      default:
        break;  // a slider is among `sliders` if it can check; a king never checks
    }
    // Sliders that can check now: the one that moved, and those `from` stood in front of.
    sliders &= to_bb | ((rook_lines | bishop_lines) & from_bb ? ~Bitboard(0) : 0);
    while (sliders) {
      const Square s = pop_lsb(sliders);
      const Bitboard between = between_bb(ksq, s);
      if ((square_bb(s) == to_bb || (between & from_bb)) && (between & occ) == square_bb(s))
        chk |= square_bb(s);
    }
    st.checkers = chk;
  } else {
    st.checkers = compute_checkers();
  }
  st.rep_key = st.key;
  if (st.ep != NoSquare && !ep_capture_legal())
    st.rep_key ^= zobrist::en_passant_key(file_of(st.ep));
}

// The rest of do_move for a castling, out of line (the common moves' code stays small).
[[gnu::noinline]] void Position::finish_castling(StateInfo& st, Square king, Square rook) {
  st.key ^= castle(king, rook, false);
  const std::uint8_t cr = st.castling & castling_mask_[king] & castling_mask_[rook];
  st.key ^= CastlingKeys[st.castling] ^ CastlingKeys[cr];
  st.castling = cr;
  if (side_ == Black) ++fullmove_;
  side_ = ~side_;
  st.checkers = compute_checkers();
  st.rep_key = st.key;  // no en-passant square after a castling
}

// King takes rook: both are lifted first, as either may land where the other stood. Out of
// line, so that the code of every other move stays small.
[[gnu::noinline]] Key Position::castle(Square king, Square rook, bool undo) {
  const Square kto = castled_king(king, rook), rto = castled_rook(king, rook);
  const Square kfrom = undo ? kto : king, rfrom = undo ? rto : rook;
  const Square kdest = undo ? king : kto, rdest = undo ? rook : rto;
  const Piece k = board_[kfrom], r = board_[rfrom];
  remove_piece(kfrom);
  remove_piece(rfrom);
  put_piece(k, kdest);
  put_piece(r, rdest);
  return zobrist::piece_key(k, kfrom) ^ zobrist::piece_key(k, kdest) ^
         zobrist::piece_key(r, rfrom) ^ zobrist::piece_key(r, rdest);
}

void Position::undo_move() {
  const StateInfo& st = states_.back();
  const Move m = st.move;
  const Color us = ~side_;
  const Square from = m.from(), to = m.to();
  side_ = us;
  if (us == Black) --fullmove_;
  if (m.kind() == Move::Castling) [[unlikely]] {
    castle(from, to, true);
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
    // `to` is the rook's square; the rook gives any direct check from where it lands.
    piece_sq = castled_rook(from, to);
    occ = (occ ^ square_bb(to)) | square_bb(castled_king(from, to)) | square_bb(piece_sq);
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
  if (m.kind() == Move::Castling) ours &= ~square_bb(to);
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

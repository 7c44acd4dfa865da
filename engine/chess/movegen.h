#pragma once
// Legal move generation (internal to the chess module). One template generates for a colour
// and a mode into a sink: MoveList sinks store moves, counting sinks only add popcounts, which
// is what makes bulk-counted perft fast. Legality comes from check and pin masks, so no move
// is ever made and unmade to test it.
#include "engine/chess/bitboard.h"
#include "engine/chess/position.h"

namespace knightly::chess::movegen {

enum class Mode { All, Captures };  // Captures: captures, en passant, and every promotion

struct ListSink {
  MoveList& list;
  void add(Move m) { list.push_back(m); }
  void piece_moves(Square from, Bitboard targets) {
    while (targets) list.push_back(Move(from, pop_lsb(targets)));
  }
  template <int Delta>
  void pawn_moves(Bitboard targets) {
    while (targets) {
      Square to = pop_lsb(targets);
      list.push_back(Move(Square(to - Delta), to));
    }
  }
  template <int Delta>
  void promotions(Bitboard targets) {
    while (targets) {
      Square to = pop_lsb(targets);
      Square from = Square(to - Delta);
      list.push_back(Move(from, to, Move::Promotion, Queen));
      list.push_back(Move(from, to, Move::Promotion, Rook));
      list.push_back(Move(from, to, Move::Promotion, Bishop));
      list.push_back(Move(from, to, Move::Promotion, Knight));
    }
  }
};

// Writes into a caller's buffer that need not be initialised (perft's hot path: a MoveList
// would zero its 512 bytes at every node).
struct BufferSink {
  Move* out;
  void add(Move m) { *out++ = m; }
  void piece_moves(Square from, Bitboard targets) {
    while (targets) *out++ = Move(from, pop_lsb(targets));
  }
  template <int Delta>
  void pawn_moves(Bitboard targets) {
    while (targets) {
      Square to = pop_lsb(targets);
      *out++ = Move(Square(to - Delta), to);
    }
  }
  template <int Delta>
  void promotions(Bitboard targets) {
    while (targets) {
      Square to = pop_lsb(targets);
      Square from = Square(to - Delta);
      *out++ = Move(from, to, Move::Promotion, Queen);
      *out++ = Move(from, to, Move::Promotion, Rook);
      *out++ = Move(from, to, Move::Promotion, Bishop);
      *out++ = Move(from, to, Move::Promotion, Knight);
    }
  }
};

struct CountSink {
  std::uint64_t count = 0;
  void add(Move) { ++count; }
  void piece_moves(Square, Bitboard targets) { count += popcount(targets); }
  template <int Delta>
  void pawn_moves(Bitboard targets) {
    count += popcount(targets);
  }
  template <int Delta>
  void promotions(Bitboard targets) {
    count += 4 * popcount(targets);
  }
};

// True when `us` capturing en passant from `from` to `ep` leaves our king safe.
template <Color Us, Lookup L>
inline bool en_passant_safe(const Position& pos, Square from, Square ep) {
  constexpr Color Them = ~Us;
  Square ksq = pos.king_square(Us);
  Square cap = Square(Us == White ? ep - 8 : ep + 8);
  Bitboard occ = (pos.occupied() ^ square_bb(from) ^ square_bb(cap)) | square_bb(ep);
  Bitboard their = pos.pieces(Them) & ~square_bb(cap);
  Bitboard rq = (pos.pieces(Rook) | pos.pieces(Queen)) & their;
  Bitboard bq = (pos.pieces(Bishop) | pos.pieces(Queen)) & their;
  if (rook_attacks<L>(ksq, occ) & rq) return false;
  if (bishop_attacks<L>(ksq, occ) & bq) return false;
  if (knight_attacks(ksq) & pos.pieces(Them, Knight)) return false;
  if (pawn_attacks(Us, ksq) & pos.pieces(Them, Pawn) & ~square_bb(cap)) return false;
  return true;
}

// Always inlined so that a caller compiled for a richer instruction set (perft's POPCNT
// build) gets the whole generator compiled that way too. `Chess960`: the position's castling
// layout (Position::chess960_layout(), fixed for its life) is not that of chess, so the
// castling squares come from the position; callers choose once, at the root, and standard
// chess runs the generator with its squares as constants.
template <Color Us, Mode M, Lookup L, bool Chess960 = false, class Sink>
__attribute__((always_inline)) inline void generate(const Position& pos, Sink& sink) {
  constexpr Color Them = ~Us;
  constexpr int Up = Us == White ? 8 : -8;
  constexpr int UpLeft = Us == White ? 7 : -9;
  constexpr int UpRight = Us == White ? 9 : -7;
  constexpr Bitboard Rank7 = Us == White ? rank_bb(6) : rank_bb(1);
  constexpr Bitboard Rank3 = Us == White ? rank_bb(2) : rank_bb(5);

  const Bitboard us = pos.pieces(Us), them = pos.pieces(Them);
  const Bitboard occ = us | them;
  const Square ksq = pos.king_square(Us);

  const Bitboard their_rq = (pos.pieces(Rook) | pos.pieces(Queen)) & them;
  const Bitboard their_bq = (pos.pieces(Bishop) | pos.pieces(Queen)) & them;
  const Bitboard checkers = pos.checkers();  // kept up to date by do_move
  // King moves: each target is tested with the king lifted off the board, so that a slider
  // checking along a line still covers the square behind the king. Testing the few targets
  // costs less than building the full map of attacked squares.
  const Bitboard occ_no_king = occ ^ square_bb(ksq);
  auto attacked = [&](Square s, Bitboard o) {
    return (pawn_attacks(Us, s) & pos.pieces(Them, Pawn)) ||
           (knight_attacks(s) & pos.pieces(Them, Knight)) ||
           (king_attacks(s) & pos.pieces(Them, King)) || (rook_attacks<L>(s, o) & their_rq) ||
           (bishop_attacks<L>(s, o) & their_bq);
  };
  {
    Bitboard targets = king_attacks(ksq) & ~us;
    if constexpr (M == Mode::Captures) targets &= them;
    Bitboard safe = 0;
    while (targets) {
      Square s = pop_lsb(targets);
      if (!attacked(s, occ_no_king)) safe |= square_bb(s);
    }
    sink.piece_moves(ksq, safe);
  }
  if (more_than_one(checkers)) return;
  const Bitboard check_mask = checkers ? between_bb(ksq, lsb(checkers)) : ~Bitboard(0);

  // Pinned pieces: ours alone between our king and an enemy slider on a line with it.
  Bitboard pinned = 0;
  Bitboard snipers =
      (rook_pseudo_attacks(ksq) & their_rq) | (bishop_pseudo_attacks(ksq) & their_bq);
  while (snipers) {
    Square s = pop_lsb(snipers);
    Bitboard b = between_bb(ksq, s) & ~square_bb(s) & occ;
    if (b && !more_than_one(b) && (b & us)) pinned |= b;
  }

  Bitboard target = check_mask & ~us;
  if constexpr (M == Mode::Captures) target &= them;

  // Pawns. Pinned pawns are handled one at a time below.
  const Bitboard pawns = pos.pieces(Us, Pawn);
  const Bitboard free_pawns = pawns & ~pinned;
  const Bitboard empty = ~occ;
  {
    Bitboard p7 = free_pawns & Rank7, rest = free_pawns & ~Rank7;
    // Promotions (always generated, quiet ones too).
    if (p7) {
      sink.template promotions<Up>(shift<Up>(p7) & empty & check_mask);
      sink.template promotions<UpLeft>(shift<UpLeft>(p7) & them & check_mask);
      sink.template promotions<UpRight>(shift<UpRight>(p7) & them & check_mask);
    }
    sink.template pawn_moves<UpLeft>(shift<UpLeft>(rest) & them & check_mask);
    sink.template pawn_moves<UpRight>(shift<UpRight>(rest) & them & check_mask);
    if constexpr (M == Mode::All) {
      Bitboard single = shift<Up>(rest) & empty;
      Bitboard dbl = shift<Up>(single & Rank3) & empty;
      sink.template pawn_moves<Up>(single & check_mask);
      sink.template pawn_moves<2 * Up>(dbl & check_mask);
    }
    Bitboard pinned_pawns = pawns & pinned;
    while (pinned_pawns) {
      Square from = pop_lsb(pinned_pawns);
      Bitboard ray = line_bb(ksq, from) & check_mask;
      Bitboard caps = pawn_attacks(Us, from) & them & ray;
      Bitboard one = shift<Up>(square_bb(from)) & empty;
      Bitboard pushes;
      if constexpr (M == Mode::All)
        pushes = one | (shift<Up>(one & Rank3) & empty);
      else
        pushes = (square_bb(from) & Rank7) ? one : 0;
      pushes &= ray;
      Bitboard all = caps | pushes;
      if (square_bb(from) & Rank7) {
        while (all) {
          Square to = pop_lsb(all);
          sink.add(Move(from, to, Move::Promotion, Queen));
          sink.add(Move(from, to, Move::Promotion, Rook));
          sink.add(Move(from, to, Move::Promotion, Bishop));
          sink.add(Move(from, to, Move::Promotion, Knight));
        }
      } else {
        sink.piece_moves(from, all);
      }
    }
    // En passant: verified by removing both pawns from the board.
    Square ep = pos.ep_square();
    if (ep != NoSquare) {
      Square cap = Square(ep - Up);
      if (check_mask & (square_bb(ep) | square_bb(cap))) {
        Bitboard attackers = pawn_attacks(Them, ep) & pawns;
        while (attackers) {
          Square from = pop_lsb(attackers);
          if (en_passant_safe<Us, L>(pos, from, ep)) sink.add(Move(from, ep, Move::EnPassant));
        }
      }
    }
  }

  // Knights (a pinned knight can never move).
  Bitboard b = pos.pieces(Us, Knight) & ~pinned;
  while (b) {
    Square from = pop_lsb(b);
    sink.piece_moves(from, knight_attacks(from) & target);
  }
  b = (pos.pieces(Us, Bishop) | pos.pieces(Us, Queen)) & us;
  while (b) {
    Square from = pop_lsb(b);
    // Captures: no lookup for a slider with no target on its lines at all.
    if constexpr (M == Mode::Captures)
      if (!(bishop_pseudo_attacks(from) & target)) continue;
    Bitboard t = bishop_attacks<L>(from, occ) & target;
    if (square_bb(from) & pinned) t &= line_bb(ksq, from);
    sink.piece_moves(from, t);
  }
  b = pos.pieces(Us, Rook) | pos.pieces(Us, Queen);
  b &= us;
  while (b) {
    Square from = pop_lsb(b);
    if constexpr (M == Mode::Captures)
      if (!(rook_pseudo_attacks(from) & target)) continue;
    Bitboard t = rook_attacks<L>(from, occ) & target;
    if (square_bb(from) & pinned) t &= line_bb(ksq, from);
    // Queens come through both loops: diagonal moves above, orthogonal ones here.
    sink.piece_moves(from, t);
  }

  // Castling, as king takes rook: not in check, every square the king and the rook cross or
  // land on empty (but for the two of them), and no square the king crosses or lands on
  // attacked with both lifted off the board (in Chess960 the rook may have been shielding
  // the king's destination; in chess lifting them changes nothing).
  if constexpr (M == Mode::All) {
    if (!checkers) {
      const std::uint8_t cr = pos.castling_rights();
      if constexpr (!Chess960) {
        constexpr Square K = Us == White ? 4 : 60;
        if ((cr & castling_right(Us, true)) && !(occ & (square_bb(K + 1) | square_bb(K + 2))) &&
            !attacked(Square(K + 1), occ) && !attacked(Square(K + 2), occ))
          sink.add(Move(K, Square(K + 3), Move::Castling));
        if ((cr & castling_right(Us, false)) &&
            !(occ & (square_bb(K - 1) | square_bb(K - 2) | square_bb(K - 3))) &&
            !attacked(Square(K - 1), occ) && !attacked(Square(K - 2), occ))
          sink.add(Move(K, Square(K - 4), Move::Castling));
      } else {
        for (const bool king_side : {true, false}) {
          const int index = castling_index(Us, king_side);
          if (!(cr & (1 << index)) || (occ & pos.castling_empty(index))) continue;
          const Square rook = pos.castling_rook(index);
          const Bitboard lifted = occ_no_king ^ square_bb(rook);
          Bitboard path = pos.castling_king_path(index);
          bool safe = true;
          while (path && safe) safe = !attacked(pop_lsb(path), lifted);
          if (safe) sink.add(Move(ksq, rook, Move::Castling));
        }
      }
    }
  }
}

// The slider lookups this CPU does fast (PEXT, else magics).
template <Mode M, bool Chess960, class Sink>
inline void generate_for_cpu(const Position& pos, Sink& sink) {
  const bool white = pos.side_to_move() == White;
  if (detail::tables.fast_pext) {
    if (white)
      generate<White, M, Lookup::Pext, Chess960>(pos, sink);
    else
      generate<Black, M, Lookup::Pext, Chess960>(pos, sink);
  } else if (white) {
    generate<White, M, Lookup::Magic, Chess960>(pos, sink);
  } else {
    generate<Black, M, Lookup::Magic, Chess960>(pos, sink);
  }
}

template <Mode M, class Sink>
inline void generate(const Position& pos, Sink& sink) {
  if (pos.chess960_layout()) [[unlikely]]
    generate_for_cpu<M, true>(pos, sink);
  else
    generate_for_cpu<M, false>(pos, sink);
}

}  // namespace knightly::chess::movegen

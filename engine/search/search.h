#pragma once
// The engine API with no protocol in it: a Search owns all its state (transposition table,
// RNG, killers, history, counters), so any number of searches run at once on different
// threads without sharing anything. uci/ parses text into these structs and prints results;
// the runner's BuiltinPlayer calls the same API in-process.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/chess/position.h"
#include "engine/search/book.h"

namespace knightly::search {

enum class Algorithm { Random, Greedy, Minimax, Negamax, AlphaBeta, Mcts };

// The Move Overhead option's default: ms of a clock kept back (time_manager.h).
constexpr std::int64_t OverheadMs = 10;

// Everything a UCI option can set. Defaults are the strongest alpha-beta configuration.
struct SearchConfig {
  Algorithm algorithm = Algorithm::AlphaBeta;
  std::string eval = "material+pst";  // terms joined by '+': material pst tension mobility random
  int hash_mb = 16;                   // 0 = no transposition table
  bool iterative_deepening = true;
  bool move_ordering = true;
  bool quiescence = true;
  bool pruning = true;     // alphabeta: PVS, null move, late-move reductions, check extension,
                           // reverse futility; in quiescence SEE and move-count pruning
  bool shuffle = false;    // shuffle move order before searching
  int eval_noise = 0;      // cp, uniform noise in [-n, n] added to leaf evaluations
  int knight_value = 320;  // cp, the knight in the material term (eval::PieceValue's default)
  int random_margin = 0;   // cp, pick uniformly among root moves within n of the best
  std::uint64_t seed = 1;  // the generator's seed; UCI's 0 ("from the clock") is resolved by
                           // the front end (engine/uci/seed.h), never read here
  bool mcts_eval_playouts = false;  // MCTS: cut playouts short and score them by evaluation
  int mcts_playouts = 10000;        // MCTS: playouts when `go` gives no node or time limit
  int mcts_exploration = 141;       // MCTS: UCT constant c, in hundredths (141 = sqrt 2)
  bool own_book = false;   // play from the book given by Search::set_book while it has moves
  std::string book_file;   // Polyglot .bin, EPD or PGN: loaded by the front end, not here
  int book_depth = 0;      // plies of the game (from the move counters) the book is used for;
                           // 0 = as long as it has a move
  bool book_best = false;  // the heaviest book move rather than a weighted random one
  int default_depth = 4;   // used when `go` gives no limit at all (not "infinite")
  // Move Overhead (as Stockfish's): ms of a clock kept in reserve for what the move's trip
  // through the GUI or runner costs; raise it where many games share few cores.
  int move_overhead_ms = int(OverheadMs);
  bool chess960 = false;  // UCI_Chess960: castling written king takes rook (the front end's;
                          // the search plays Chess960 positions either way)
};

// Limits of one `go`.
struct Limits {
  int depth = 0;                     // 0 = none
  std::uint64_t nodes = 0;           // 0 = none (MCTS: playouts)
  std::int64_t movetime_ms = 0;      // 0 = none
  std::int64_t time_ms[2] = {0, 0};  // wtime, btime; 0 = none
  std::int64_t inc_ms[2] = {0, 0};
  int movestogo = 0;
  bool infinite = false;
  // A hard stop, ms after the search starts, whatever the other limits say (0 = none); it
  // only cuts a search short, so a `go` with no limit still searches to its default depth.
  // The runner's BuiltinPlayer puts its move deadline here.
  std::int64_t deadline_ms = 0;
  bool has_clock() const { return time_ms[0] > 0 || time_ms[1] > 0; }
};

// Scores are centipawns from the side to move; mates are MateScore - plies.
constexpr int MateScore = 32000;
constexpr int MateBound = MateScore - 1000;
inline bool is_mate_score(int s) {
  return s >= MateBound || s <= -MateBound;
}

struct SearchInfo {
  int depth = 0;
  int seldepth = 0;
  int score = 0;  // cp, or mate as above
  std::uint64_t nodes = 0;
  std::int64_t time_ms = 0;
  std::vector<chess::Move> pv;
};

struct SearchResult {
  chess::Move best;    // Move::none() when there is no legal move
  chess::Move ponder;  // may be none
  SearchInfo info;     // of the last completed iteration
  bool from_book = false;
};

class Search {
 public:
  explicit Search(SearchConfig config);
  ~Search();
  Search(const Search&) = delete;
  Search& operator=(const Search&) = delete;

  const SearchConfig& config() const;
  void set_config(SearchConfig config);  // resizes tables as needed
  void new_game();                       // forgets tables (O(1)), history, killers (ucinewgame)
                                         // and reseeds the generator, as set_config does

  // The book OwnBook plays from (null: none). Immutable, so searches on many threads may
  // share one; reading it from a file is the caller's (engine/uci/book_file.h).
  void set_book(std::shared_ptr<const OpeningBook> book);
  const OpeningBook* book() const;

  // Searches `pos` (with its history, for repetitions) until a limit is reached or `stop`
  // becomes true. Reports each completed iteration through `on_info` (may be empty).
  // Always returns a legal move when one exists.
  SearchResult go(const chess::Position& pos, const Limits& limits, const std::atomic<bool>& stop,
                  const std::function<void(const SearchInfo&)>& on_info = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace knightly::search

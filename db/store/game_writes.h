#pragma once
// The Store's game writes (Store::games()): a finished game goes in with its moves in one
// transaction committed before the call returns, so a crash can lose only games still in
// progress; imported games go in by batches, each game once. Every method throws
// StoreException on failure.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "db/records/store_types.h"
#include "db/store/statement.h"

namespace knightly::db {

struct StoreCore;

// An imported game's moves as its games row keeps them (games.moves_uci, moves_san), built
// by the importer instead of a MoveRecord per move: a PGN file gives nothing per move but the
// move, and the records cost more to build and free than the row.
struct MoveLists {
  std::string uci;       // space-separated
  std::string san;       // the same moves, space-separated
  std::string book_uci;  // the leading book moves (opening_moves), "" when none
  int plies = 0;
};

// The rule a game's moves keep to be a row's lists (MoveLists), checked a move at a time in
// order: each has its UCI and SAN text, without a space, and the book moves (the ones
// opening_moves lists) come first, as a reader rebuilds them.
class MoveListsOrder {
 public:
  bool admits(bool book, std::string_view uci, std::string_view san) {
    if ((book && !book_so_far_) || uci.empty() || san.empty() ||
        uci.find(' ') != std::string_view::npos || san.find(' ') != std::string_view::npos)
      return false;
    book_so_far_ = book;
    return true;
  }

 private:
  bool book_so_far_ = true;
};

// One game for import_games().
struct ImportItem {
  GameRecord record;
  std::int64_t white_engine_id = 0;
  std::int64_t black_engine_id = 0;
  // Whatever identifies the game beyond its moves (e.g. the PGN's Event/Site/Date/Round
  // tags); hashed with the players, start position, moves and result for de-duplication.
  std::string dedup_key;
  // content_hash(record, dedup_key) when the caller computed it already (an importer does on
  // its parsing threads); "" to have import_games compute it.
  std::string content_hash{};
  // When set (record.pgn left empty): the tag section of the game's PGN, whose movetext is
  // plain_movetext(record). The row keeps the tags alone when the moves are lists in it (the
  // text is written when read), else the whole text.
  std::string pgn_tags{};
  // When set, the game's moves (record.moves left empty); the row keeps them as lists.
  std::optional<MoveLists> lists{};

  const MoveLists* move_lists() const { return lists ? &*lists : nullptr; }
};

class GameWrites {
 public:
  explicit GameWrites(StoreCore& core);
  ~GameWrites();
  GameWrites(const GameWrites&) = delete;
  GameWrites& operator=(const GameWrites&) = delete;

  // Stores a finished game and its moves in one committed transaction; returns its row id.
  // Conflict if (tournament, round, pair, game_in_pair) is already stored; Invalid if the
  // result is "*".
  std::int64_t insert_game(std::int64_t tournament_id, const GameRecord& game,
                           std::int64_t white_engine_id, std::int64_t black_engine_id);
  // Stores a finished game of a claimed pair (Work::claim_pair) in one transaction: in games
  // when the claim is still the pair's current attempt, else in superseded_games. The last
  // game of the pair also releases the claim (the pair is done) in the same transaction.
  StoreOutcome store_game(const Claim& claim, const GameRecord& game, std::int64_t white_engine_id,
                          std::int64_t black_engine_id);
  // Several finished games of claimed pairs, each as store_game() would store it, all in one
  // committed transaction: short games stored together cost one commit (its pages written
  // once) instead of one each. Nothing is stored when it throws.
  struct ClaimedGame {
    const Claim* claim = nullptr;
    const GameRecord* game = nullptr;
    std::int64_t white_engine_id = 0;
    std::int64_t black_engine_id = 0;
  };
  std::vector<StoreOutcome> store_games(std::span<const ClaimedGame> games);

  // --- import
  // Inserts the games not already in the database (same content hash), all in one
  // transaction. Importing the same games again changes nothing.
  std::vector<ImportOutcome> import_games(std::int64_t tournament_id,
                                          std::span<const ImportItem> games);
  // The moves hashed are `lists` when given (the game's record.moves then empty), else
  // game.moves: the same hash either way.
  static std::string content_hash(const GameRecord& game, std::string_view dedup_key,
                                  const MoveLists* lists = nullptr);

 private:
  // What an imported game adds to its row: its content hash, and its item's pgn_tags and
  // lists.
  struct ImportedRow {
    const std::string& content_hash;
    const ImportItem& item;
  };
  // Inserts one game and its moves inside the caller's transaction; returns its row id.
  // imported: imported games only (else nullptr; `game` is then imported->item.record);
  // worker_id: 0 for none. With a claim, only while the claim is still its pair's current attempt
  // (the pair's row is then locked until the transaction ends); returns 0, inserting nothing, when
  // it is not.
  std::int64_t insert_rows(std::int64_t tournament_id, const GameRecord& game, const GameId& id,
                           std::int64_t white, std::int64_t black, const ImportedRow* imported,
                           std::int64_t worker_id, const Claim* claim);
  std::vector<ImportOutcome> import_rows(std::int64_t tournament_id,
                                         std::span<const ImportItem> games);
  // store_game()'s checks, before any transaction; "storing game ..." for messages.
  std::string check_claimed(const Claim& claim, const GameRecord& game) const;
  // store_game() inside the caller's transaction.
  StoreOutcome store_claimed(const Claim& claim, const GameRecord& game, std::int64_t white,
                             std::int64_t black);

  StoreCore& core_;
  // Prepared once and reused: the per-game hot path.
  std::optional<Statement> insert_game_;
  std::optional<Statement> insert_claimed_game_;  // only under the claim's current attempt
  std::optional<Statement> record_in_pair_;       // the pair's stored_mask, and done
  // insert_moves_[n] inserts n moves in one statement: a game's moves go in blocks of
  // kMoveBlock and one statement for the rest (a 60-ply game: 2 statements, one round trip
  // each on a server). Prepared when first needed.
  static constexpr int kMoveBlock = 32;  // x 18 bound values per move: under SQLite's 999
  std::array<std::optional<Statement>, kMoveBlock + 1> insert_moves_;
};

}  // namespace knightly::db

#pragma once
// The tournament schedule: every game with its stable identity, colours and opening, computed
// from the config and the seed alone, so the same config and seed always give the same games in
// the same order. Like fastchess's scheduler it has total() and next(), and any game can be
// looked up by index, so a resumed run skips the games the database already holds.
//
// Order: round by round; within a round encounter by encounter (round robin: every pair of
// engines (i, j), i < j; gauntlet: each of the first `seeds` engines against every other
// engine); within an encounter `games` games, grouped in pairs. The two games of a pair share
// one opening (when `repeat`) and swap colours.
#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <vector>

#include "db/records/game_record.h"
#include "runner/config/config.h"
#include "runner/config/config_error.h"
#include "runner/tournament/opening.h"
#include "runner/tournament/opening_book.h"

namespace knightly::runner {

struct ScheduledGame {
  GameId id;
  int white = 0;  // engine indices into Config::engines
  int black = 0;
  int encounter = 0;               // 0-based encounter (engine pairing) within the round
  std::size_t opening_unit = 0;    // 0-based: which opening of the run (a pair shares one)
  std::size_t book_index = 0;      // 0-based line/game of the book; 0 when there is no book
  std::uint64_t opening_seed = 0;  // seeds the random plies; shared by a pair
  bool operator==(const ScheduledGame&) const = default;
};

// How large a tournament may be: every game of the schedule is held in memory and every pair
// is a row of the database, so a config that would need gigabytes of either (10,000 engines,
// a billion rounds) is refused before anything is allocated or written. The counts that
// drive allocations besides (threads, opening plies) are bounded with them.
struct ScheduleLimits {
  std::uint64_t engines = 1000;
  std::uint64_t pairs = 1'000'000;  // pairs of games (a single game counts as a pair)
  int concurrency = 1024;           // game threads
  int plies = 1000;                 // openings.plies and openings.random_plies
};

// The size of the schedule a config makes, computed without building it (and without
// overflowing, whatever the config says).
struct ScheduleSize {
  std::uint64_t encounters = 0;  // per round
  std::uint64_t games = 0;
  std::uint64_t pairs = 0;
};
ScheduleSize schedule_size(const Config& config);

// nullopt when `config` is within `limits`; else the key that is over, what it makes and the
// limit ("tournament.rounds: 1000000000 rounds of 1 encounter of 2 games make 1000000000 pairs
// of games; a tournament has at most 1000000").
std::optional<ConfigError> check_schedule_limits(const Config& config,
                                                 const ScheduleLimits& limits = {});

class Schedule {
 public:
  // `book_size` = number of openings in the book, 0 for none (the start position). Throws
  // std::length_error for a config over the default ScheduleLimits (check them first).
  Schedule(const Config& config, std::uint64_t seed, std::size_t book_size);

  std::size_t total() const { return games_.size(); }
  const ScheduledGame& at(std::size_t index) const { return games_.at(index); }
  const std::vector<ScheduledGame>& games() const { return games_; }

  // Iteration: the next game after the cursor, or nothing at the end.
  std::optional<ScheduledGame> next();
  void seek(std::size_t index) { cursor_ = index; }
  std::size_t position() const { return cursor_; }

  // Encounters of one round as (first, second) engine indices.
  static std::vector<std::pair<int, int>> encounters(const TournamentConfig& t, int engine_count);

 private:
  std::vector<ScheduledGame> games_;
  std::size_t cursor_ = 0;
};

// True when the schedule's games come in pairs (same opening, colours reversed): an even
// number of games per encounter with `repeat`. Pentanomial statistics need pairs; without
// them a run's figures come from single games.
bool schedule_has_pairs(const TournamentConfig& t);

// The opening a scheduled game starts from: the book entry (or the start position) followed by
// the configured random plies. Both games of a pair get the same opening. `chess960` without a
// book: one of the 960 start positions (or with `openings.dfrc` a Double Fischer Random one)
// drawn from the pair's seed, so a resumed run draws the same.
std::expected<Opening, BookError> opening_for(const ScheduledGame& game, const OpeningBook* book,
                                              const OpeningsConfig& openings,
                                              bool chess960 = false);

// `opening` followed by a line of `book` moves: weighted random (order random, drawn from
// `seed`) or the heaviest move at each ply (order sequential), at most `openings.plies`
// plies (0: until the book ends). An error when `opening.fen` cannot be read.
std::expected<Opening, std::string> add_polyglot_line(Opening opening,
                                                      const chess::PolyglotBook& book,
                                                      const OpeningsConfig& openings,
                                                      std::uint64_t seed);

// The Chess960 start position of a pair whose opening seed is `seed`: "chess960 #N" or
// "dfrc #W/#B" as its source.
Opening chess960_opening(std::uint64_t seed, bool dfrc);

}  // namespace knightly::runner

#include "runner/tournament/schedule.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>

#include "engine/chess/chess960.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "runner/tournament/random_plies.h"
#include "runner/tournament/schedule_rng.h"

namespace knightly::runner {

std::vector<std::pair<int, int>> Schedule::encounters(const TournamentConfig& t, int engine_count) {
  std::vector<std::pair<int, int>> out;
  if (t.format == TournamentFormat::Gauntlet) {
    for (int s = 0; s < t.seeds && s < engine_count; ++s)
      for (int o = t.seeds; o < engine_count; ++o) out.emplace_back(s, o);
  } else {
    for (int i = 0; i < engine_count; ++i)
      for (int j = i + 1; j < engine_count; ++j) out.emplace_back(i, j);
  }
  return out;
}

namespace {

// a * b, saturated at UINT64_MAX.
std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b;
}

std::string plural(std::uint64_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

ScheduleSize schedule_size(const Config& config) {
  const auto& t = config.tournament;
  const std::uint64_t n = config.engines.size();
  ScheduleSize s;
  if (t.format == TournamentFormat::Gauntlet) {
    const std::uint64_t seeds =
        t.seeds > 0 ? std::min<std::uint64_t>(std::uint64_t(t.seeds), n) : 0;
    s.encounters = times(seeds, n - seeds);
  } else {
    s.encounters = n < 2 ? 0 : times(n, n - 1) / 2;
  }
  const std::uint64_t rounds = t.rounds > 0 ? std::uint64_t(t.rounds) : 0;
  const std::uint64_t games = t.games_per_encounter > 0 ? std::uint64_t(t.games_per_encounter) : 0;
  s.games = times(times(rounds, s.encounters), games);
  s.pairs = times(times(rounds, s.encounters), (games + 1) / 2);
  return s;
}

std::optional<ConfigError> check_schedule_limits(const Config& config,
                                                 const ScheduleLimits& limits) {
  const auto error = [](const std::string& key, const std::string& message) {
    return ConfigError{"", 0, 0, key, message};
  };
  const std::uint64_t engines = config.engines.size();
  if (engines > limits.engines)
    return error("engine", plural(engines, "engine") + ": a tournament has at most " +
                               std::to_string(limits.engines) +
                               " (the [[engine]] tables, or -engine "
                               "on a play command line)");
  const ScheduleSize size = schedule_size(config);
  if (size.pairs > limits.pairs) {
    const auto& t = config.tournament;
    const bool rounds = std::uint64_t(t.rounds) >= std::uint64_t(t.games_per_encounter);
    return error(rounds ? "tournament.rounds" : "tournament.games",
                 plural(std::uint64_t(t.rounds), "round") + " of " +
                     plural(size.encounters, "encounter") + " of " +
                     plural(std::uint64_t(t.games_per_encounter), "game") + " make " +
                     (size.pairs == UINT64_MAX ? std::string("more than 2^64")
                                               : std::to_string(size.pairs)) +
                     " pairs of games: a tournament has at most " + std::to_string(limits.pairs) +
                     " (-rounds and -games on a play command line)");
  }
  if (config.tournament.concurrency > limits.concurrency)
    return error("tournament.concurrency",
                 std::to_string(config.tournament.concurrency) + " games at once: at most " +
                     std::to_string(limits.concurrency) + " (-concurrency on a play command line)");
  if (config.openings.plies > limits.plies)
    return error("openings.plies", std::to_string(config.openings.plies) +
                                       " plies of each opening: at most " +
                                       std::to_string(limits.plies));
  if (config.openings.random_plies > limits.plies)
    return error("openings.random_plies", std::to_string(config.openings.random_plies) +
                                              " random plies: at most " +
                                              std::to_string(limits.plies));
  return std::nullopt;
}

Schedule::Schedule(const Config& config, std::uint64_t seed, std::size_t book_size) {
  if (auto too_big = check_schedule_limits(config)) throw std::length_error(too_big->to_string());
  const auto& t = config.tournament;
  const auto pairings = encounters(t, static_cast<int>(config.engines.size()));
  const int games = t.games_per_encounter;
  const int pairs_per_encounter = (games + 1) / 2;
  const std::size_t total =
      static_cast<std::size_t>(t.rounds) * pairings.size() * static_cast<std::size_t>(games);
  games_.reserve(total);

  // Which book entry each opening unit uses: sequential from `start`, or a seeded permutation
  // of the whole book (built only when there is a book).
  std::vector<std::uint32_t> order;
  if (book_size > 0 && config.openings.order == BookOrder::Random) {
    order.resize(book_size);
    std::iota(order.begin(), order.end(), 0u);
    chess::SplitMix64 rng(mix_seed(seed, 0x6f70656e696e6773ULL));  // "openings"
    for (std::size_t i = book_size - 1; i > 0; --i)
      std::swap(order[i], order[rng.below_multiply_shift(i + 1)]);
  }
  const std::size_t start = static_cast<std::size_t>(config.openings.start - 1);
  auto book_index = [&](std::size_t unit) -> std::size_t {
    if (book_size == 0) return 0;
    const std::size_t k = (start + unit) % book_size;
    return order.empty() ? k : order[k];
  };

  std::size_t unit = 0;
  int index = 0;
  for (int round = 0; round < t.rounds; ++round) {
    for (std::size_t e = 0; e < pairings.size(); ++e) {
      const auto [first, second] = pairings[e];
      for (int g = 0; g < games; ++g) {
        // A pair shares its opening when `repeat`; otherwise every game has its own.
        if (g > 0 && !(t.repeat && g % 2 == 1)) ++unit;
        ScheduledGame game;
        game.id.round = round;
        game.id.pair = static_cast<int>(e) * pairs_per_encounter + g / 2;
        game.id.game_in_pair = g % 2;
        game.id.index = index++;
        game.encounter = static_cast<int>(e);
        // Colours alternate within the encounter; an odd game count also alternates by round.
        // -noswap keeps the first engine White; -reverse turns every game round.
        const bool alternate = ((g + (games % 2 == 1 ? round : 0)) % 2) == 1;
        const bool swap = (t.swap_sides && alternate) != t.reverse_sides;
        game.white = swap ? second : first;
        game.black = swap ? first : second;
        game.opening_unit = unit;
        game.book_index = book_index(unit);
        game.opening_seed = mix_seed(seed, unit);
        games_.push_back(game);
      }
      ++unit;
    }
  }
}

bool schedule_has_pairs(const TournamentConfig& t) {
  return t.repeat && t.games_per_encounter % 2 == 0;
}

std::optional<ScheduledGame> Schedule::next() {
  if (cursor_ >= games_.size()) return std::nullopt;
  return games_[cursor_++];
}

Opening chess960_opening(std::uint64_t seed, bool dfrc) {
  chess::SplitMix64 rng(mix_seed(seed, 0x6368657373393630ULL));  // "chess960"
  const int white = static_cast<int>(rng.below(chess::Chess960Positions));
  Opening opening;
  if (dfrc) {
    const int black = static_cast<int>(rng.below(chess::Chess960Positions));
    opening.fen = chess::dfrc_fen(white, black).value();
    opening.source = "dfrc #" + std::to_string(white) + "/#" + std::to_string(black);
  } else {
    opening.fen = chess::chess960_fen(white).value();
    opening.source = "chess960 #" + std::to_string(white);
  }
  return opening;
}

std::expected<Opening, std::string> add_polyglot_line(Opening opening,
                                                      const chess::PolyglotBook& book,
                                                      const OpeningsConfig& openings,
                                                      std::uint64_t seed) {
  auto pos = chess::Position::from_fen(opening.fen);
  if (!pos) return std::unexpected("start position '" + opening.fen + "': " + pos.error().message);
  // 0 plies: follow the book to its end (a line cannot be longer than a game).
  const int plies = openings.plies > 0 ? openings.plies : 1000;
  const auto pick =
      openings.order == BookOrder::Sequential ? chess::BookPick::Best : chess::BookPick::Weighted;
  chess::SplitMix64 rng(mix_seed(seed, 0x706f6c79676c6f74ULL));  // "polyglot"
  for (chess::Move m : book.line(*pos, plies, pick, rng)) opening.moves.push_back(chess::to_uci(m));
  return opening;
}

std::expected<Opening, BookError> opening_for(const ScheduledGame& game, const OpeningBook* book,
                                              const OpeningsConfig& openings, bool chess960) {
  Opening opening;
  if (book && book->size() > 0) {
    auto entry = book->at(game.book_index);
    if (!entry) return std::unexpected(entry.error());
    opening = std::move(*entry);
  } else if (chess960) {
    opening = chess960_opening(game.opening_seed, openings.dfrc);
  } else {
    opening.fen = std::string(chess::Position::StartFen);
  }
  if (book && book->polyglot()) {
    auto extended =
        add_polyglot_line(std::move(opening), *book->polyglot(), openings, game.opening_seed);
    if (!extended) return std::unexpected(BookError{book->label(), 0, extended.error()});
    opening = std::move(*extended);
    opening.source = book->label() + (opening.source.empty() ? "" : " from " + opening.source);
  }
  if (openings.random_plies > 0) {
    auto extended = add_random_plies(opening, openings.random_plies, game.opening_seed);
    if (!extended)
      return std::unexpected(BookError{book ? book->label() : "", 0, extended.error()});
    opening = std::move(*extended);
  }
  return opening;
}

}  // namespace knightly::runner

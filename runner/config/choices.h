#pragma once
// The settings that are one word of a few (a tournament's format, a book's order, the SPRT's
// model...) as enums, each with its words in one table: the enum's value is its word's index.
// Every parser, message and document reads the words from here (runner/config/match_schema.h),
// so a word is written once.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/stats/llr.h"

namespace knightly::runner {

enum class TournamentFormat { RoundRobin, Gauntlet };
enum class BookFormat { Epd, Pgn, Bin };
enum class BookOrder { Random, Sequential };
enum class Variant { Standard, Fischerandom };
enum class Protocol { Uci, Xboard };
// full: every finished game is fsynced (survives power loss); normal: WAL with
// synchronous=NORMAL (survives a crashed or killed runner, not a power cut; much faster).
enum class SyncMode { Full, Normal };
// What a run prints: Knightly's status line, cutechess-cli's lines, or fastchess's lines and
// its interval report.
enum class OutputStyle { Knightly, Cutechess, Fastchess };
// Which tablebase results are adjudicated (fastchess's -tbadjudicate).
enum class TablebaseResult { WinLoss, Draw, Both };

// The words of each choice, in the enum's order.
template <typename E>
const std::vector<std::string>& choice_names();

template <>
const std::vector<std::string>& choice_names<TournamentFormat>();
template <>
const std::vector<std::string>& choice_names<BookFormat>();
template <>
const std::vector<std::string>& choice_names<BookOrder>();
template <>
const std::vector<std::string>& choice_names<Variant>();
template <>
const std::vector<std::string>& choice_names<Protocol>();
template <>
const std::vector<std::string>& choice_names<SyncMode>();
template <>
const std::vector<std::string>& choice_names<OutputStyle>();
template <>
const std::vector<std::string>& choice_names<TablebaseResult>();
template <>
const std::vector<std::string>& choice_names<stats::EloModel>();

template <typename E>
const std::string& choice_name(E value) {
  return choice_names<E>()[static_cast<std::size_t>(value)];
}

template <typename E>
std::optional<E> parse_choice(std::string_view word) {
  const auto& names = choice_names<E>();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == word) return static_cast<E>(i);
  return std::nullopt;
}

// A book's format from its file name's extension (.epd, .pgn, .bin); none for another name.
std::optional<BookFormat> book_format_of(std::string_view file);

// "'swiss' is not one of round-robin, gauntlet" with the closest word when there is one.
std::string not_a_choice(std::string_view word, const std::vector<std::string>& names);

}  // namespace knightly::runner

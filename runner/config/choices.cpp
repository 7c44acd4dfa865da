#include "runner/config/choices.h"

#include "runner/config/closest_name.h"

namespace knightly::runner {

template <>
const std::vector<std::string>& choice_names<TournamentFormat>() {
  static const std::vector<std::string> names = {"round-robin", "gauntlet"};
  return names;
}
template <>
const std::vector<std::string>& choice_names<BookFormat>() {
  static const std::vector<std::string> names = {"epd", "pgn", "bin"};
  return names;
}
template <>
const std::vector<std::string>& choice_names<BookOrder>() {
  static const std::vector<std::string> names = {"random", "sequential"};
  return names;
}
template <>
const std::vector<std::string>& choice_names<Variant>() {
  static const std::vector<std::string> names = {"standard", "fischerandom"};
  return names;
}
template <>
const std::vector<std::string>& choice_names<Protocol>() {
  static const std::vector<std::string> names = {"uci", "xboard"};
  return names;
}
template <>
const std::vector<std::string>& choice_names<SyncMode>() {
  static const std::vector<std::string> names = {"full", "normal"};
  return names;
}
template <>
const std::vector<std::string>& choice_names<OutputStyle>() {
  static const std::vector<std::string> names = {"knightly", "cutechess", "fastchess"};
  return names;
}
template <>
const std::vector<std::string>& choice_names<TablebaseResult>() {
  static const std::vector<std::string> names = {"WIN_LOSS", "DRAW", "BOTH"};
  return names;
}
template <>
const std::vector<std::string>& choice_names<stats::EloModel>() {
  return stats::model_names();
}

std::optional<BookFormat> book_format_of(std::string_view file) {
  const auto dot = file.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || file.find('/', dot) != std::string_view::npos)
    return std::nullopt;
  return parse_choice<BookFormat>(file.substr(dot + 1));
}

std::string not_a_choice(std::string_view word, const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  std::string out = "'" + std::string(word) + "' is not " + list;
  if (auto near = closest_name(word, names)) out += "; did you mean '" + *near + "'?";
  return out;
}

}  // namespace knightly::runner

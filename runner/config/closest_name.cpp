#include "runner/config/closest_name.h"

#include <algorithm>
#include <cctype>

namespace knightly::runner {

int edit_distance(std::string_view a, std::string_view b) {
  std::vector<int> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      const int next = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = row[j];
      row[j] = next;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  const int limit = std::max<int>(2, static_cast<int>(word.size()) / 3);
  std::optional<std::string> best;
  int best_distance = limit + 1;
  for (const auto& candidate : candidates) {
    const int d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::string suggestion_text(std::string_view word, const std::vector<std::string>& candidates) {
  if (auto best = closest_name(word, candidates)) return "; did you mean '" + *best + "'?";
  std::string out = " (valid: ";
  for (std::size_t i = 0; i < candidates.size(); ++i) out += (i ? ", " : "") + candidates[i];
  return out + ")";
}

}  // namespace knightly::runner

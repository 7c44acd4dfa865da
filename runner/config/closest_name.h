#pragma once
// "Did you mean ...?" for unknown keys, flags and option names: the valid name at the smallest
// edit distance, when it is close enough to be a plausible typo.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace knightly::runner {

// Levenshtein distance, case-insensitive.
int edit_distance(std::string_view a, std::string_view b);

// The closest candidate within max(2, |word| / 3) edits, or nothing.
std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& candidates);

// " did you mean 'x'?" or " (valid: a, b, c)" for the message tail.
std::string suggestion_text(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace knightly::runner

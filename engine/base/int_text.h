#pragma once
// The one reader of an integer given as text with its allowed range: a command-line flag, a
// match schema row read from text, an engine word or ladder step, a UCI spin option, a port. Every
// caller gets the one message, naming what was read, the text and the range, whether the text is no
// integer or one out of range:
//   "-concurrency: 'two' is not an integer in [1, 1024]"
//   "depth: '0' is not an integer in [1, 1000]"
//   "nodes: '0' is not an integer >= 1"     (max INT64_MAX: no upper bound but the type's)
// With an empty name the message starts at the text, for a caller that says where itself.
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace knightly::base {

// The whole of `text` as a decimal integer (an optional '-', digits, nothing around them) in
// [min, max] (a number too large for 64 bits is outside it).
std::expected<std::int64_t, std::string> parse_int(std::string_view name, std::string_view text,
                                                   std::int64_t min, std::int64_t max);

}  // namespace knightly::base

#pragma once
// ASCII text helpers every module may use, one of each: blanks, case folding, and names that
// compare without regard to case (UCI option names). Independent of the C locale.
#include <algorithm>
#include <string>
#include <string_view>

namespace knightly::base {

// A blank as C's isspace has it in the "C" locale: space, \t, \n, \v, \f, \r.
constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

constexpr char lower_char(char c) {
  return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

inline std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = lower_char(c);
  return r;
}

// Equal but for the case of ASCII letters (UCI option names compare so).
constexpr bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(),
                    [](char x, char y) { return lower_char(x) == lower_char(y); });
}

}  // namespace knightly::base

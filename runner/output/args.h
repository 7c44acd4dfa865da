#pragma once
// Tiny helpers for `--flag value` style subcommand arguments.
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/int_text.h"

namespace knightly::runner {

class Args {
 public:
  explicit Args(std::vector<std::string> words) : words_(std::move(words)) {}
  bool empty() const { return pos_ >= words_.size(); }
  const std::string& peek() const { return words_[pos_]; }
  std::string take() { return words_[pos_++]; }
  // The words not taken yet.
  std::vector<std::string> rest() const { return {words_.begin() + long(pos_), words_.end()}; }
  // The value after a flag; an error naming the flag when it is missing.
  std::expected<std::string, std::string> value(const std::string& flag) {
    if (empty()) return std::unexpected(flag + ": missing value");
    return take();
  }

 private:
  std::vector<std::string> words_;
  std::size_t pos_ = 0;
};

// A flag's integer in [min, max]: the one ranged-integer reader (engine/base/int_text.h).
using base::parse_int;
std::expected<double, std::string> parse_double(const std::string& flag, const std::string& text);

}  // namespace knightly::runner

#include "tests/engines/mock/mock_common.h"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace knightly::mock {
namespace {

template <typename T>
bool parse_number(const std::string& text, T& out) {
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && p == end && !text.empty();
}

}  // namespace

FlagParser& FlagParser::flag(std::string name, bool& target, bool value) {
  entries_.push_back({std::move(name), false, [&target, value](const std::string&) {
                        target = value;
                        return true;
                      }});
  return *this;
}

FlagParser& FlagParser::value(std::string name, int& target) {
  entries_.push_back(
      {std::move(name), true, [&target](const std::string& v) { return parse_number(v, target); }});
  return *this;
}

FlagParser& FlagParser::value(std::string name, std::uint64_t& target) {
  entries_.push_back(
      {std::move(name), true, [&target](const std::string& v) { return parse_number(v, target); }});
  return *this;
}

FlagParser& FlagParser::value(std::string name, std::string& target) {
  entries_.push_back({std::move(name), true, [&target](const std::string& v) {
                        target = v;
                        return true;
                      }});
  return *this;
}

void FlagParser::parse(int argc, char** argv) const {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const Entry* entry = nullptr;
    for (const Entry& e : entries_)
      if (e.name == a) entry = &e;
    if (!entry) {
      std::fprintf(stderr, "%s: unknown flag %s\n", program_.c_str(), a.c_str());
      std::exit(2);
    }
    std::string v;
    if (entry->takes_value) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s: %s needs a value\n", program_.c_str(), a.c_str());
        std::exit(2);
      }
      v = argv[++i];
    }
    if (!entry->set(v)) {
      std::fprintf(stderr, "%s: %s: not a number: %s\n", program_.c_str(), a.c_str(), v.c_str());
      std::exit(2);
    }
  }
}

void out(std::string_view text) {
  std::string line;
  line.reserve(text.size() + 1);
  line.append(text);
  line += '\n';
  const char* p = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    ssize_t n = ::write(1, p, left);
    if (n <= 0) std::_Exit(4);
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

void sleep_ms(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

void stall_forever() {
  for (;;) sleep_ms(1000);
}

std::optional<chess::Move> pick_move(const chess::MoveList& legal, std::uint64_t seed, Lcg& rng) {
  if (legal.empty()) return std::nullopt;
  std::size_t k = 0;
  if (seed != 0) k = static_cast<std::size_t>(rng.next() % legal.size());
  return legal[k];
}

}  // namespace knightly::mock

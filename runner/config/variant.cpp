#include "runner/config/variant.h"

#include <algorithm>
#include <cctype>

namespace knightly::runner {

namespace {

// UCI option names compare without regard to case.
bool same_option(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

bool is_chess960(const TournamentConfig& t) {
  return t.variant == Variant::Fischerandom;
}

void add_variant_options(Config& config) {
  if (!is_chess960(config.tournament)) return;
  for (auto& e : config.engines) {
    if (e.builtin || e.protocol != Protocol::Uci) continue;
    bool given = false;
    for (const auto& [name, value] : e.options)
      if (same_option(name, "UCI_Chess960")) given = true;
    if (!given) e.options.emplace_back("UCI_Chess960", "true");
  }
}

}  // namespace knightly::runner

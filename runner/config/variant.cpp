#include "runner/config/variant.h"

#include "engine/base/ascii.h"

namespace knightly::runner {

bool is_chess960(const TournamentConfig& t) {
  return t.variant == Variant::Fischerandom;
}

void add_variant_options(Config& config) {
  if (!is_chess960(config.tournament)) return;
  for (auto& e : config.engines) {
    if (e.builtin || e.protocol != Protocol::Uci) continue;
    bool given = false;
    for (const auto& [name, value] : e.options)
      if (base::same_ignoring_case(name, "UCI_Chess960")) given = true;
    if (!given) e.options.emplace_back("UCI_Chess960", "true");
  }
}

}  // namespace knightly::runner

#include "runner/players/player_factory.h"

#include "runner/players/builtin_player.h"
#include "runner/players/uci_player.h"
#include "runner/players/xboard_player.h"

namespace knightly::runner {

std::unique_ptr<Player> make_player(const EngineConfig& config, const PlayerOptions& options) {
  if (config.builtin) return std::make_unique<BuiltinPlayer>(config);
  if (config.protocol == Protocol::Xboard) return std::make_unique<XboardPlayer>(config, options);
  return std::make_unique<UciPlayer>(config, options);
}

}  // namespace knightly::runner

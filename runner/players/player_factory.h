#pragma once
// One entry point for the match and the CLI: the right Player for an EngineConfig.
#include <memory>

#include "runner/config/config.h"
#include "runner/players/player.h"
#include "runner/players/player_options.h"

namespace knightly::runner {

// builtin = true -> BuiltinPlayer; protocol xboard -> XboardPlayer; otherwise a UciPlayer.
// The player is not started yet. Config validation rejects other protocols, so another one
// here is a bug (std::invalid_argument).
std::unique_ptr<Player> make_player(const EngineConfig& config, const PlayerOptions& options = {});

}  // namespace knightly::runner

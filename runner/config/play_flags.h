#pragma once
// cutechess-cli style flags for `knightly play`, and the engine SPEC of `knightly sprt`, parsed
// into the same Config as a TOML tournament. Errors name the flag ("-games: ...").
//
//   -engine cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]... [proto=uci] [tc=TC]
//           [st=S] [depth=N] [nodes=N] [timemargin=MS] [dir=D] [env.NAME=VALUE]...
//   -engine builtin=NAME [option.NAME=VALUE]... [limits as above]
//   -each ...   (the same keys, for every engine; an engine's own values take precedence)
//   -games N  -rounds N  -repeat  -concurrency N  -srand N  -maxmoves N  -recover
//   -openings file=F [format=epd|pgn] [order=random|sequential] [plies=N] [start=N]
//   [random_plies=N] -draw movenumber=N movecount=M score=S   -resign movecount=K score=S
//   [twosided=true] -tournament round-robin|gauntlet  -seeds N  -event NAME -sprt elo0=E elo1=E
//   [alpha=A] [beta=B] [model=normalized|logistic] -pgnout FILE  -db PATH
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "runner/config/config.h"
#include "runner/config/config_error.h"

namespace knightly::runner {

// `args` are the words after `knightly play`. Defaults follow cutechess: 1 game per encounter,
// no opening repeat, no recover; the tournament is named "play".
std::expected<Config, ConfigError> parse_play_flags(const std::vector<std::string>& args);

// `knightly sprt --new SPEC`: a bare path ("./engine"), or space-separated `key=value` words as
// `-engine` takes them ("cmd=./sf option.Hash=16", "builtin=ab option.Search=alphabeta").
// The name defaults to the builtin name or the command's file name.
std::expected<EngineConfig, ConfigError> parse_engine_spec(std::string_view spec);

}  // namespace knightly::runner

#pragma once
// The variants a tournament may play: Variant::Standard and Variant::Fischerandom (Chess960,
// with Double Fischer Random as an openings setting), spelled as cutechess-cli and fastchess
// spell them and as the PGN Variant tag names them (choices.h).
#include "runner/config/config.h"

namespace knightly::runner {

bool is_chess960(const TournamentConfig& t);

// Chess960 engines must be told so: every UCI engine of a fischerandom tournament gets
// `UCI_Chess960 = true` unless its options already name UCI_Chess960 (as cutechess-cli and
// fastchess set it). Builtin players need no option: they search the position as it is.
void add_variant_options(Config& config);

}  // namespace knightly::runner

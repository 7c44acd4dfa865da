#pragma once
// The log-likelihood ratio of H1 "Elo = elo1" against H0 "Elo = elo0", in the models the
// tools compute it: fishtest's generalized LLR (LLRcalc.py, which fastchess's normalized and
// logistic models follow) on trinomial or pentanomial counts, fastchess's bayesian model and
// cutechess-cli's, both on trinomial counts.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace knightly::runner::stats {

// normalized: bounds in normalized Elo (t-value of the per-game score, fishtest's default);
// logistic: bounds in plain logistic Elo (expected score);
// bayesian: fastchess's model=bayesian, bounds in BayesElo (trinomial counts only);
// cutechess: cutechess-cli's -sprt, bounds in logistic Elo read through BayesElo with the
// sample's draw Elo (trinomial counts only).
enum class EloModel { Normalized, Logistic, Bayesian, Cutechess };

const char* model_name(EloModel m);  // "normalized", "logistic", "bayesian", "cutechess"
std::optional<EloModel> parse_model(std::string_view name);
// Every model's name, in the enum's order (for messages and the option schema).
const std::vector<std::string>& model_names();
// bayesian and cutechess are defined on single games: a pentanomial has no LLR in them.
bool trinomial_only(EloModel m);

// counts: 3 ({L, D, W}) or 5 (pentanomial {LL, LD, WL+DD, WD, WW}) frequencies; zeros are
// regularized to 1e-3 as fishtest does. Any other length, or no games, gives 0.
double llr_logistic(double elo0, double elo1, std::span<const double> counts);
double llr_normalized(double nelo0, double nelo1, std::span<const double> counts);

// cutechess-cli's SPRT (projects/lib/src/sprt.cpp, Sprt::status): half a game of prior in each
// class (Jeffreys' Dirichlet(0.5, 0.5, 0.5)), the draw Elo estimated from that sample, the
// bounds (logistic Elo) divided by the BayesElo scale 4x/(1+x)^2, x = 10^(-drawelo/400), and
// the trinomial log-likelihood ratio of the two BayesElo laws. counts: {L, D, W}; other
// lengths give 0.
double llr_cutechess(double elo0, double elo1, std::span<const double> counts);

// fastchess's model=bayesian (app/src/matchmaking/sprt/sprt.cpp): zeros regularized as above,
// the draw Elo from the sample, the bounds in BayesElo turned into expected scores, and the
// GSPRT of the logistic model on them. 0 until there is a win and a loss (as fastchess).
// counts: {L, D, W}; other lengths give 0.
double llr_bayesian(double elo0, double elo1, std::span<const double> counts);

// The model's LLR; a trinomial-only model given 5 counts gives 0 (sprt_status() hands those
// models the games of the pairs instead).
double llr(EloModel model, double elo0, double elo1, std::span<const double> counts);

}  // namespace knightly::runner::stats

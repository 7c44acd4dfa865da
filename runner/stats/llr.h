#pragma once
// fishtest's generalized log-likelihood ratio (LLRcalc.py): the GSPRT statistic for
// H1 "Elo = elo1" against H0 "Elo = elo0", on trinomial or pentanomial counts.
#include <optional>
#include <span>
#include <string_view>

namespace knightly::runner::stats {

// normalized: bounds in normalized Elo (t-value of the per-game score, fishtest's default);
// logistic: bounds in plain logistic Elo (expected score).
enum class EloModel { Normalized, Logistic };

const char* model_name(EloModel m);  // "normalized", "logistic"
std::optional<EloModel> parse_model(std::string_view name);

// counts: 3 ({L, D, W}) or 5 (pentanomial {LL, LD, WL+DD, WD, WW}) frequencies; zeros are
// regularized to 1e-3 as fishtest does. Any other length, or no games, gives 0.
double llr_logistic(double elo0, double elo1, std::span<const double> counts);
double llr_normalized(double nelo0, double nelo1, std::span<const double> counts);
double llr(EloModel model, double elo0, double elo1, std::span<const double> counts);

}  // namespace knightly::runner::stats

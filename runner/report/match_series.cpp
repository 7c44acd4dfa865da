#include "runner/report/match_series.h"

#include <algorithm>

#include "runner/report/json.h"
#include "runner/stats/elo.h"
#include "runner/stats/match_text.h"

namespace knightly::runner::report {

std::int64_t sample_stride(std::int64_t expected_games, int points) {
  return std::max<std::int64_t>(1, (expected_games + points - 1) / std::max(points, 1));
}

std::string match_json(const std::string& first, const std::string& second,
                       const std::vector<MatchPoint>& points,
                       const std::optional<stats::SprtConfig>& sprt,
                       const std::optional<DecidedPoint>& decided) {
  const MatchPoint last = points.empty() ? MatchPoint{} : points.back();
  const bool by_pairs = last.ptnml.pairs() > 0;
  JsonWriter w;
  w.begin_object();
  w.key("first").value(first);
  w.key("second").value(second);
  w.key("games").begin_object();
  w.key("wins").value(last.wdl.wins).key("draws").value(last.wdl.draws);
  w.key("losses").value(last.wdl.losses).end_object();
  const auto& p = last.ptnml;
  w.key("ptnml").begin_array().value(p.ll).value(p.ld).value(p.wl).value(p.dd).value(p.wd);
  w.value(p.ww).end_array();
  w.key("elo_from").value(by_pairs ? "pairs" : "games");
  const auto last_elo = by_pairs ? stats::get_elo(last.ptnml) : stats::get_elo(last.wdl);
  w.key("elo_text").value(stats::elo_text(last_elo, 1));
  w.key("elo").begin_array();
  for (const MatchPoint& pt : points) {
    if (by_pairs ? pt.ptnml.pairs() == 0 : pt.wdl.games() == 0) continue;
    const auto e = by_pairs ? stats::get_elo(pt.ptnml) : stats::get_elo(pt.wdl);
    w.begin_array().value(pt.games);
    if (e.unbounded && e.all_won())
      w.null().value(e.bound95, 2).null();
    else if (e.unbounded)
      w.null().null().value(e.bound95, 2);
    else
      w.value(e.elo, 2).value(e.elo - e.elo95, 2).value(e.elo + e.elo95, 2);
    w.end_array();
  }
  w.end_array();
  w.key("sprt");
  if (!sprt) {
    w.null();
  } else {
    const auto status = decided ? decided->status
                                : (by_pairs ? stats::sprt_status(*sprt, last.ptnml)
                                            : stats::sprt_status(*sprt, last.wdl));
    w.begin_object();
    w.key("elo0").value(sprt->elo0, 2).key("elo1").value(sprt->elo1, 2);
    w.key("alpha").value(sprt->alpha, 3).key("beta").value(sprt->beta, 3);
    w.key("model").value(stats::model_name(sprt->model));
    w.key("lower").value(status.bounds.lower, 4).key("upper").value(status.bounds.upper, 4);
    w.key("llr").value(status.llr, 4);
    w.key("decision").value(stats::decision_name(status.decision));
    w.key("decided_after");
    decided ? w.value(decided->games) : w.null();
    w.key("llr_path").begin_array();
    for (const MatchPoint& pt : points) {
      if (by_pairs ? pt.ptnml.pairs() == 0 : pt.wdl.games() == 0) continue;
      if (decided && pt.games >= decided->games) break;
      const auto s =
          by_pairs ? stats::sprt_status(*sprt, pt.ptnml) : stats::sprt_status(*sprt, pt.wdl);
      w.begin_array().value(pt.games).value(s.llr, 4).end_array();
    }
    if (decided) w.begin_array().value(decided->games).value(decided->status.llr, 4).end_array();
    w.end_array();
    w.end_object();
  }
  w.end_object();
  return w.take();
}

}  // namespace knightly::runner::report

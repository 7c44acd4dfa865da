#include "runner/report/datasets.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <map>

#include "runner/report/json.h"

namespace knightly::runner::report {

std::string game_list_json(std::span<const db::GameSummary> rows, std::int64_t total, bool more) {
  JsonWriter w;
  w.begin_object().key("total").value(total).key("rows").begin_array();
  for (const auto& g : rows) {
    w.begin_object();
    w.key("id").value(g.id);
    w.key("tournament").value(g.tournament);
    w.key("round").value(g.game_id.round + 1);
    w.key("pair").value(g.game_id.pair + 1);
    w.key("game").value(g.game_id.game_in_pair + 1);
    w.key("white").value(g.white);
    w.key("black").value(g.black);
    w.key("result").value(result_token(g.result));
    w.key("termination").value(termination_name(g.termination));
    w.key("reason").value(g.reason);
    w.key("plies").value(g.plies);
    w.key("started_at").value(g.started_at);
    w.key("duration_ms").value(g.duration_ms);
    w.end_object();
  }
  w.end_array().key("next_before");
  if (more && !rows.empty())
    w.value(rows.back().id);
  else
    w.null();
  w.end_object();
  return w.take();
}

std::string move_stats_json(std::span<const db::MoveStats> rows, std::int64_t games_covered,
                            std::int64_t games_selected) {
  // Rows come ordered by engine, then move number; group them without assuming it.
  std::map<std::string, std::vector<const db::MoveStats*>> by_engine;
  for (const auto& r : rows) by_engine[r.engine].push_back(&r);
  JsonWriter w;
  w.begin_object().key("games").value(games_covered).key("of").value(games_selected);
  w.key("engines").begin_array();
  for (auto& [engine, list] : by_engine) {
    std::sort(list.begin(), list.end(), [](const db::MoveStats* a, const db::MoveStats* b) {
      return a->move_number < b->move_number;
    });
    w.begin_object().key("engine").value(engine).key("rows").begin_array();
    for (const db::MoveStats* r : list) {
      if (r->moves <= 0) continue;
      const double n = static_cast<double>(r->moves);
      w.begin_array().value(r->move_number).value(r->moves);
      if (r->depth_moves > 0)
        w.value(static_cast<double>(r->depth_sum) / static_cast<double>(r->depth_moves), 2);
      else
        w.null();
      w.value(static_cast<double>(r->nodes_sum) / n, 0);
      if (r->timed_ms > 0)
        w.value(static_cast<double>(r->timed_nodes) * 1000.0 / static_cast<double>(r->timed_ms), 0);
      else
        w.null();
      w.value(static_cast<double>(r->time_ms_sum) / n, 1);
      if (r->clock_moves > 0)
        w.value(static_cast<double>(r->clock_left_sum) / static_cast<double>(r->clock_moves), 0);
      else
        w.null();
      w.end_array();
    }
    w.end_array().end_object();
  }
  w.end_array().end_object();
  return w.take();
}

std::optional<double> parse_utc(std::string_view s) {
  // YYYY-MM-DDTHH:MM:SS[.fff]Z
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
      s.back() != 'Z')
    return std::nullopt;
  auto num = [&](std::size_t at, std::size_t len) -> std::optional<int> {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data() + at, s.data() + at + len, v);
    if (ec != std::errc() || p != s.data() + at + len) return std::nullopt;
    return v;
  };
  const auto y = num(0, 4), mo = num(5, 2), d = num(8, 2), h = num(11, 2), mi = num(14, 2),
             sec = num(17, 2);
  if (!y || !mo || !d || !h || !mi || !sec || *h > 23 || *mi > 59 || *sec > 60) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::year(*y),
                                        std::chrono::month(static_cast<unsigned>(*mo)),
                                        std::chrono::day(static_cast<unsigned>(*d))};
  if (!ymd.ok()) return std::nullopt;
  double fraction = 0;
  const std::string_view rest = s.substr(19, s.size() - 20);
  if (!rest.empty()) {
    if (rest[0] != '.' || rest.size() < 2) return std::nullopt;
    double scale = 0.1;
    for (char c : rest.substr(1)) {
      if (c < '0' || c > '9') return std::nullopt;
      fraction += (c - '0') * scale;
      scale /= 10;
    }
  }
  const auto days = std::chrono::sys_days(ymd).time_since_epoch().count();
  return static_cast<double>(days) * 86400.0 + *h * 3600.0 + *mi * 60.0 + *sec + fraction;
}

std::optional<double> finish_rate(std::span<const db::GameSummary> newest) {
  std::optional<double> first, last;
  std::int64_t n = 0;
  for (const auto& g : newest) {
    const auto start = parse_utc(g.started_at);
    if (!start) continue;
    const double end = *start + static_cast<double>(g.duration_ms) / 1000.0;
    first = first ? std::min(*first, end) : end;
    last = last ? std::max(*last, end) : end;
    ++n;
  }
  if (n < 2 || !first || *last - *first <= 0) return std::nullopt;
  return static_cast<double>(n - 1) / (*last - *first);
}

std::string summary_json(const Summary& s) {
  JsonWriter w;
  w.begin_object();
  w.key("generation").value(s.generation);
  w.key("now").value(s.now);
  w.key("games").value(s.games);
  w.key("tournaments").begin_array();
  for (const auto& t : s.tournaments) {
    w.begin_object();
    w.key("id").value(t.id);
    w.key("name").value(t.name);
    w.key("kind").value(t.kind);
    w.key("status").value(t.status);
    w.key("started_at").value(t.started_at);
    w.key("finished_at").value(t.finished_at);
    w.key("games").value(t.games);
    w.key("total");
    t.total ? w.value(*t.total) : w.null();
    w.key("games_per_hour");
    t.rate ? w.value(*t.rate * 3600.0, 1) : w.null();
    w.key("eta_s");
    if (t.status == "running" && t.total && t.rate && *t.rate > 0)
      w.value(static_cast<double>(std::max<std::int64_t>(0, *t.total - t.games)) / *t.rate, 0);
    else
      w.null();
    w.end_object();
  }
  w.end_array();
  w.key("active").begin_array();
  for (const auto& a : s.active) {
    w.begin_object();
    w.key("tournament").value(a.tournament);
    w.key("round").value(a.round);
    w.key("pair").value(a.pair);
    w.key("game").value(a.game);
    w.key("white").value(a.white);
    w.key("black").value(a.black);
    w.key("worker").value(a.worker);
    w.key("fen").value(a.fen);
    w.key("ply").value(a.ply);
    w.key("heartbeat_ago_ms").value(a.heartbeat_ago_ms);
    w.end_object();
  }
  w.end_array();
  w.key("active_note").value(s.active_note);
  w.end_object();
  return w.take();
}

}  // namespace knightly::runner::report

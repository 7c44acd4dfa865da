#include "runner/output/tune_view.h"

#include "runner/report/json.h"
#include "runner/run/tune_plan.h"

namespace knightly::runner {
namespace {

constexpr int kDecimals = 6;

// The values now: after the last iteration of the path, or the start values.
std::vector<double> current(const db::StoredTune& t, const std::vector<std::vector<double>>& path) {
  return path.empty() ? tune::start_values(t.params) : path.back();
}

}  // namespace

Table tune_table(const db::StoredTune& t) {
  const auto path = tune_path(t);
  const auto now = current(t, path);
  Table table({"name", "value", "setting", "start", "min", "max", "c_end", "r_end", "type"});
  for (std::size_t i = 0; i < t.params.size(); ++i) {
    const tune::Param& p = t.params[i];
    table.add_row({cell(p.name), cell(now[i], 2), cell(tune::option_text(p, now[i])),
                   cell(p.start, 2), cell(p.min, 2), cell(p.max, 2), cell(p.c_end, 4),
                   cell(p.r_end, 6), cell(p.integer ? "int" : "float")});
  }
  return table;
}

std::string tune_json(const db::Tournament& tournament, const db::StoredTune& t) {
  const auto path = tune_path(t);
  const auto now = current(t, path);
  const auto& s = t.setup.settings;
  report::JsonWriter w;
  w.begin_object();
  w.key("tournament").value(tournament.name);
  w.key("status").value(db::status_text(tournament.status));
  w.key("engine").value(t.setup.engine);
  w.key("plus").value(t.setup.plus_engine);
  w.key("minus").value(t.setup.minus_engine);
  w.key("iterations").value(s.iterations);
  w.key("finished").value(static_cast<std::int64_t>(path.size()));
  w.key("pairs_per_iteration").value(s.pairs_per_iteration);
  w.key("delay").value(s.delay);
  w.key("a_ratio").value(s.a_ratio, kDecimals);
  w.key("alpha").value(s.alpha, kDecimals);
  w.key("gamma").value(s.gamma, kDecimals);
  w.key("params").begin_array();
  for (std::size_t i = 0; i < t.params.size(); ++i) {
    const tune::Param& p = t.params[i];
    w.begin_object();
    w.key("name").value(p.name);
    w.key("value").value(now[i], kDecimals);
    w.key("setting").value(tune::option_text(p, now[i]));
    w.key("start").value(p.start, kDecimals);
    w.key("min").value(p.min, kDecimals);
    w.key("max").value(p.max, kDecimals);
    w.key("c_end").value(p.c_end, kDecimals);
    w.key("r_end").value(p.r_end, kDecimals);
    w.key("type").value(p.integer ? "int" : "float");
    w.end_object();
  }
  w.end_array();
  w.key("path").begin_array();
  for (const auto& it : t.iterations) {
    w.begin_object();
    w.key("iteration").value(it.iteration + 1);
    auto column = [&](const char* name, auto field) {
      w.key(name).begin_array();
      for (const auto& step : it.steps) w.value(static_cast<double>(field(step)), kDecimals);
      w.end_array();
    };
    column("theta", [](const tune::Step& x) { return x.theta; });
    w.key("flip").begin_array();
    for (const auto& step : it.steps) w.value(step.flip);
    w.end_array();
    column("c", [](const tune::Step& x) { return x.c; });
    column("a", [](const tune::Step& x) { return x.a; });
    column("plus", [](const tune::Step& x) { return x.plus; });
    column("minus", [](const tune::Step& x) { return x.minus; });
    for (auto [name, v] : {std::pair{"wins", it.wins}, {"draws", it.draws}, {"losses", it.losses}})
      v ? (void)w.key(name).value(*v) : (void)w.key(name).null();
    w.key("values");
    if (static_cast<std::size_t>(it.iteration) < path.size()) {
      w.begin_array();
      for (double v : path[static_cast<std::size_t>(it.iteration)]) w.value(v, kDecimals);
      w.end_array();
    } else {
      w.null();
    }
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.take() + "\n";
}

void print_tune_summary(std::ostream& out, const db::StoredTune& t) {
  const auto path = tune_path(t);
  out << "\nTune of " << t.setup.engine << " after " << path.size() << " of "
      << t.setup.settings.iterations << " iterations (knightly query tune: the path):\n";
  out << tune_table(t).render(OutputFormat::Table, "tune");
}

}  // namespace knightly::runner

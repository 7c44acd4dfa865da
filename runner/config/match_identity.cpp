#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "runner/config/match_schema.h"
#include "runner/config/match_schema_rows.h"
#include "runner/match/time_control.h"

namespace knightly::runner {
namespace {

using schema_rows::toml_number;

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string flag_text(bool b) {
  return b ? "true" : "false";
}

void limits_lines(std::ostringstream& out, const EngineLimits& l) {
  if (l.tc) {
    // st with tc=inf keeps its time per move: both are part of what the engine is told.
    if (l.tc->movetime_ms > 0)
      out << "st = " << toml_number(double(l.tc->movetime_ms) / 1000.0) << "\n";
    if (l.tc->infinite || l.tc->movetime_ms == 0)
      out << "tc = " << quoted(format_time_control(*l.tc)) << "\n";
  }
  if (l.depth) out << "depth = " << *l.depth << "\n";
  if (l.nodes) out << "nodes = " << *l.nodes << "\n";
  if (l.time_margin_ms) out << "time_margin = " << l.time_margin_ms << "\n";
}

}  // namespace

std::string match_identity(const Config& config) {
  // Keys in a fixed order and form: two configs that define the same games give the same text.
  const auto& t = config.tournament;
  const auto& a = t.adjudication;
  std::ostringstream out;
  out << "# What defines the games of this match (runner/config/match_schema.h): another\n"
         "# concurrency, database, PGN file or output is the same match.\n";
  out << "[tournament]\n";
  out << "format = " << quoted(choice_name(t.format)) << "\n";
  if (t.format == TournamentFormat::Gauntlet) out << "seeds = " << t.seeds << "\n";
  out << "rounds = " << t.rounds << "\n";
  out << "games = " << t.games_per_encounter << "\n";
  out << "repeat = " << flag_text(t.repeat) << "\n";
  if (t.seed) out << "seed = " << *t.seed << "\n";
  out << "variant = " << quoted(choice_name(t.variant)) << "\n";
  out << "noswap = " << flag_text(!t.swap_sides) << "\n";
  out << "reverse = " << flag_text(t.reverse_sides) << "\n";
  if (t.reference_nps > 0) out << "reference_nps = " << toml_number(t.reference_nps) << "\n";
  limits_lines(out, t.defaults);

  out << "\n[adjudication]\n";
  out << "maxmoves = " << a.max_moves << "\n";
  if (a.draw.enabled)
    out << "draw = { movenumber = " << a.draw.move_number << ", movecount = " << a.draw.move_count
        << ", score = " << a.draw.score_cp << " }\n";
  if (a.resign.enabled)
    out << "resign = { movecount = " << a.resign.move_count << ", score = " << a.resign.score_cp
        << ", twosided = " << flag_text(a.resign.two_sided) << " }\n";
  if (a.tablebase.enabled) {
    const auto result = a.tablebase.win_loss && a.tablebase.draw ? TablebaseResult::Both
                        : a.tablebase.win_loss                   ? TablebaseResult::WinLoss
                                                                 : TablebaseResult::Draw;
    out << "tablebase = { path = " << quoted(a.tablebase.path)
        << ", pieces = " << a.tablebase.max_pieces
        << ", ignore50 = " << flag_text(a.tablebase.ignore_50)
        << ", result = " << quoted(choice_name(result)) << " }\n";
  }

  const auto& o = config.openings;
  out << "\n[openings]\n";
  if (!o.file.empty()) {
    out << "file = " << quoted(o.file) << "\n";
    out << "format = " << quoted(choice_name(o.format)) << "\n";
    out << "order = " << quoted(choice_name(o.order)) << "\n";
    out << "start = " << o.start << "\n";
    out << "plies = " << o.plies << "\n";
  }
  out << "random_plies = " << o.random_plies << "\n";
  out << "dfrc = " << flag_text(o.dfrc) << "\n";

  // The pairs decide an SPRT unless the report is of single games.
  out << "\n[output]\nreport_penta = " << flag_text(config.output.report_penta) << "\n";

  if (config.sprt.enabled) {
    const auto& s = config.sprt;
    out << "\n[sprt]\n";
    out << "elo0 = " << toml_number(s.elo0) << "\nelo1 = " << toml_number(s.elo1) << "\n";
    out << "alpha = " << toml_number(s.alpha) << "\nbeta = " << toml_number(s.beta) << "\n";
    out << "model = " << quoted(choice_name(s.model)) << "\n";
  }

  if (config.tune.enabled) {
    const auto& s = config.tune.settings;
    out << "\n[tune]\nengine = " << quoted(config.tune.engine) << "\n";
    out << "iterations = " << s.iterations << "\npairs_per_iteration = " << s.pairs_per_iteration
        << "\ndelay = " << s.delay << "\n";
    out << "a_ratio = " << toml_number(s.a_ratio) << "\nalpha = " << toml_number(s.alpha)
        << "\ngamma = " << toml_number(s.gamma) << "\n";
    for (const auto& p : config.tune.params)
      out << "[[tune.param]]\nname = " << quoted(p.name) << "\nstart = " << toml_number(p.start)
          << "\nmin = " << toml_number(p.min) << "\nmax = " << toml_number(p.max)
          << "\nc_end = " << toml_number(p.c_end) << "\nr_end = " << toml_number(p.r_end)
          << "\ntype = " << quoted(p.integer ? "int" : "float") << "\n";
  }

  for (const auto& e : config.engines) {
    out << "\n[[engine]]\n";
    out << "name = " << quoted(e.name) << "\n";
    if (e.builtin) {
      out << "builtin = true\n";
    } else {
      if (e.source) {
        // Its source, not the program a worker builds from it (whose path is the worker's).
        const EngineSource& s = *e.source;
        out << "repo = " << quoted(s.repo) << "\nref = " << quoted(s.ref) << "\n";
        out << "build = " << quoted(s.build) << "\n";
        if (!s.subdir.empty()) out << "subdir = " << quoted(s.subdir) << "\n";
        if (s.bench) out << "bench = " << *s.bench << "\n";
      } else {
        out << "command = " << quoted(e.command) << "\n";
      }
      if (!e.args.empty()) {
        out << "args = [";
        for (std::size_t i = 0; i < e.args.size(); ++i) out << (i ? ", " : "") << quoted(e.args[i]);
        out << "]\n";
      }
      if (!e.workdir.empty()) out << "workdir = " << quoted(e.workdir) << "\n";
      out << "proto = " << quoted(choice_name(e.protocol)) << "\n";
    }
    if (e.restart) out << "restart = true\n";
    if (e.ponder) out << "ponder = true\n";
    limits_lines(out, e.limits);
    if (!e.env.empty()) {
      out << "env = { ";
      bool first = true;
      for (const auto& [k, v] : e.env) {
        out << (first ? "" : ", ") << quoted(k) << " = " << quoted(v);
        first = false;
      }
      out << " }\n";
    }
    if (!e.options.empty()) {
      // In their order: setoption order can matter to an engine.
      out << "options = { ";
      for (std::size_t i = 0; i < e.options.size(); ++i)
        out << (i ? ", " : "") << quoted(e.options[i].first) << " = "
            << quoted(e.options[i].second);
      out << " }\n";
    }
  }
  return out.str();
}

}  // namespace knightly::runner

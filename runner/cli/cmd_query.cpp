// knightly query ...: reads the database (opened read-only, never written) and prints tables.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include "db/store/store.h"
#include "runner/cli/engine_identity.h"
#include "runner/cli/interval_report.h"
#include "runner/cli/printable.h"
#include "runner/cli/query.h"
#include "runner/cli/subcommand.h"
#include "runner/cli/table.h"
#include "runner/cli/test_list.h"
#include "runner/cli/tune_report.h"
#include "runner/config/choices.h"
#include "runner/config/closest_name.h"
#include "runner/config/config_toml.h"
#include "runner/config/engine_words.h"
#include "runner/config/play_flags.h"
#include "runner/run/decision.h"
#include "runner/run/run_options.h"
#include "runner/run/two_engine_tally.h"
#include "runner/stats/counts.h"
#include "runner/stats/elo.h"
#include "runner/stats/match_text.h"
#include "runner/stats/ratings.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {
namespace {

struct QueryOptions {
  std::string db = "knightly.db";
  bool db_given = false;
  OutputFormat format = OutputFormat::Table;
  db::GameFilter filter;
  std::string anchor;
  double anchor_rating = 0;
  int simulations = 200;
  std::optional<double> elo0, elo1, alpha, beta;
  std::string model;
  bool merge_by_name = false;  // every identity of a name as one player (standings, h2h, ratings)
  double speed_ratio = 1.5;    // query workers: a speed this far from the median is named
  bool help = false;
  // Where the command prints: the terminal, or a string for `knightly serve`'s JSON API.
  std::ostream* out = &std::cout;
  std::ostream* err = &std::cerr;
};

// --since/--until: an ISO 8601 date or UTC date and time (2026-11-01, 2026-11-01T18:30,
// 2026-11-01T18:30:15, a space for the T, a trailing Z), checked field by field, returned in
// the form stored start times compare with as text ("2026-11-01T18:30").
std::expected<std::string, std::string> iso_time_bound(const std::string& flag,
                                                       const std::string& text) {
  const auto fail = [&](const std::string& why) {
    return std::unexpected(flag + ": '" + printable(text) + "' " + why +
                           " (expected an ISO 8601 date or UTC time: 2026-11-01, "
                           "2026-11-01T18:30 or 2026-11-01T18:30:15Z)");
  };
  std::string t = text;
  if (t.size() > 10 && t[10] == ' ') t[10] = 'T';
  if (!t.empty() && (t.back() == 'Z' || t.back() == 'z') && t.size() > 10) t.pop_back();
  // Digits where the pattern has 'd'; the separators as written.
  static const std::string pattern = "dddd-dd-ddTdd:dd:dd";
  if (t.size() != 10 && t.size() != 16 && t.size() != 19) {
    if (t.size() > 19 && (t[19] == '+' || t[19] == '-' || t[19] == '.'))
      return fail("has a UTC offset or fractions of a second: times are UTC, to the second");
    return fail("is not a date or time");
  }
  for (std::size_t i = 0; i < t.size(); ++i) {
    const bool digit = t[i] >= '0' && t[i] <= '9';
    if (pattern[i] == 'd' ? !digit : t[i] != pattern[i]) return fail("is not a date or time");
  }
  const auto number = [&](std::size_t at, std::size_t n) { return std::stoi(t.substr(at, n)); };
  const int year = number(0, 4), month = number(5, 2), day = number(8, 2);
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int days[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return fail("has no month " + t.substr(5, 2));
  if (day < 1 || day > days[month - 1])
    return fail("has no day " + t.substr(8, 2) + " in its month");
  if (t.size() > 10 &&
      (number(11, 2) > 23 || number(14, 2) > 59 || (t.size() == 19 && number(17, 2) > 59)))
    return fail("is not a time of day");
  return t;
}

// Every option of `knightly query`, one row each: its help and `query KIND --help` are written
// from these rows, and the parser applies them. `kinds`: the kinds it applies to ("" = all).
struct QueryFlag {
  std::string_view flag;
  std::string_view value;  // what follows it; "" for a switch
  std::string_view help;
  std::string_view kinds;
  std::expected<void, std::string> (*apply)(QueryOptions& q, const std::string& flag,
                                            const std::string& value);
};

using Applied = std::expected<void, std::string>;

Applied set_double(std::optional<double>& to, const std::string& flag, const std::string& v) {
  auto d = parse_double(flag, v);
  if (!d) return std::unexpected(d.error());
  to = *d;
  return {};
}

// The termination names games.termination stores (db/records), for help and suggestions.
std::vector<std::string> termination_names() {
  std::vector<std::string> names;
  for (int t = static_cast<int>(Termination::Checkmate);
       t <= static_cast<int>(Termination::FalseClaim); ++t)
    names.push_back(termination_name(static_cast<Termination>(t)));
  return names;
}

constexpr std::string_view kGameKinds = "standings games h2h ratings terminations health workers";

const std::vector<QueryFlag>& query_flags() {
  static const std::vector<QueryFlag> flags{
      {"--db", "PATH", "the database: an SQLite file or postgresql://... (default knightly.db)", "",
       [](QueryOptions& q, const std::string&, const std::string& v) -> Applied {
         q.db = v;
         q.db_given = true;
         return {};
       }},
      {"--format", "table|csv|json", "how to print (default table)", "",
       [](QueryOptions& q, const std::string&, const std::string& v) -> Applied {
         auto f = parse_output_format(v);
         if (!f) return std::unexpected("--format: " + f.error());
         q.format = *f;
         return {};
       }},
      {"--tournament", "NAME",
       "only this tournament's games (repeat for several; query tournaments lists them)", "",
       [](QueryOptions& q, const std::string&, const std::string& v) -> Applied {
         q.filter.tournaments.push_back(v);
         return {};
       }},
      {"--engine", "NAME",
       "only games this engine played (repeat for several; ratings: games among them; "
       "query engines lists them)",
       "standings games h2h engines ratings terminations workers",
       [](QueryOptions& q, const std::string&, const std::string& v) -> Applied {
         q.filter.engines.push_back(v);
         return {};
       }},
      {"--result", "1-0|0-1|1/2-1/2", "only games with this result", kGameKinds,
       [](QueryOptions& q, const std::string&, const std::string& v) -> Applied {
         if (v != "1-0" && v != "0-1" && v != "1/2-1/2")
           return std::unexpected("--result: '" + printable(v) + "' (1-0, 0-1 or 1/2-1/2)");
         q.filter.result = v;
         return {};
       }},
      {"--termination", "NAME", "only games that ended this way", kGameKinds,
       [](QueryOptions& q, const std::string&, const std::string& v) -> Applied {
         q.filter.termination = v;
         return {};
       }},
      {"--since", "DATE", "only games started at or after DATE (UTC: 2026-11-01, 2026-11-01T18:30)",
       kGameKinds,
       [](QueryOptions& q, const std::string& f, const std::string& v) -> Applied {
         auto bound = iso_time_bound(f, v);
         if (!bound) return std::unexpected(bound.error());
         q.filter.since = *bound;
         return {};
       }},
      {"--until", "DATE", "only games started before DATE", kGameKinds,
       [](QueryOptions& q, const std::string& f, const std::string& v) -> Applied {
         auto bound = iso_time_bound(f, v);
         if (!bound) return std::unexpected(bound.error());
         q.filter.until = *bound;
         return {};
       }},
      {"--limit", "N", "at most N games, newest first (a table shows 50 unless told)", "games",
       [](QueryOptions& q, const std::string& f, const std::string& v) -> Applied {
         auto n = parse_int(f, v, 1, 1LL << 40);
         if (!n) return std::unexpected(n.error());
         q.filter.limit = *n;
         return {};
       }},
      {"--merge-by-name", "",
       "one row per engine name: the same name with other limits, options or binary counts as "
       "one engine (by default each is its own row, labelled by what differs)",
       "standings h2h ratings",
       [](QueryOptions& q, const std::string&, const std::string&) -> Applied {
         q.merge_by_name = true;
         return {};
       }},
      {"--anchor", "NAME", "this engine's rating is fixed (default: the average is)", "ratings",
       [](QueryOptions& q, const std::string&, const std::string& v) -> Applied {
         q.anchor = v;
         return {};
       }},
      {"--anchor-rating", "R", "the anchor's (or the average's) rating (default 0)", "ratings",
       [](QueryOptions& q, const std::string& f, const std::string& v) -> Applied {
         auto d = parse_double(f, v);
         if (!d) return std::unexpected(d.error());
         q.anchor_rating = *d;
         return {};
       }},
      {"--simulations", "N", "simulations for the error bars, 0..100000 (default 200; 0: none)",
       "ratings",
       [](QueryOptions& q, const std::string& f, const std::string& v) -> Applied {
         auto n = parse_int(f, v, 0, 100000);
         if (!n) return std::unexpected(n.error());
         q.simulations = int(*n);
         return {};
       }},
      {"--elo0", "ELO", "H0's Elo (default: as the test was run)", "sprt",
       [](QueryOptions& q, const std::string& f, const std::string& v) -> Applied {
         return set_double(q.elo0, f, v);
       }},
      {"--elo1", "ELO", "H1's Elo (default: as the test was run)", "sprt",
       [](QueryOptions& q, const std::string& f, const std::string& v) -> Applied {
         return set_double(q.elo1, f, v);
       }},
      {"--alpha", "P", "false positive rate (default: as the test was run)", "sprt",
       [](QueryOptions& q, const std::string& f, const std::string& v) -> Applied {
         return set_double(q.alpha, f, v);
       }},
      {"--beta", "P", "false negative rate (default: as the test was run)", "sprt",
       [](QueryOptions& q, const std::string& f, const std::string& v) -> Applied {
         return set_double(q.beta, f, v);
       }},
      {"--model", "normalized|logistic|bayesian|cutechess",
       "the Elo model of the bounds (default: as run)", "sprt",
       [](QueryOptions& q, const std::string&, const std::string& v) -> Applied {
         if (!stats::parse_model(v))
           return std::unexpected("--model: " + not_a_choice(printable(v), stats::model_names()));
         q.model = v;
         return {};
       }},
      {"--speed-ratio", "R",
       "name a worker whose speed (nps, with a scaled time control) is more than R times away "
       "from the median of its tournament's (default 1.5)",
       "workers",
       [](QueryOptions& q, const std::string& f, const std::string& v) -> Applied {
         auto d = parse_double(f, v);
         if (!d) return std::unexpected(d.error());
         if (!(*d > 1)) return std::unexpected(f + ": '" + printable(v) + "' (a ratio above 1)");
         q.speed_ratio = *d;
         return {};
       }},
  };
  return flags;
}

struct QueryKind {
  std::string_view name;
  std::string_view help;
};

constexpr QueryKind kKinds[] = {
    {"tournaments", "every tournament: kind, status, games, seed, start and end"},
    {"standings", "games, points, W/D/L, score and Elo of each engine, best score first"},
    {"games", "the games, newest first: players, result, termination, plies, duration"},
    {"h2h",
     "each engine's score against each other engine (csv, json: and its Elo, from the game "
     "pairs when every game is in one)"},
    {"engines", "every stored engine version: command or builtin options, binary hash, games"},
    {"ratings", "maximum-likelihood ratings with 95% error bars, per connected group (Ordo)"},
    {"terminations", "how the games ended, by termination and reason"},
    {"health", "per engine: time losses, crashes, stalls, illegal moves and move latency"},
    {"sprt", "the SPRT figures of a two-engine tournament (the only SPRT unless --tournament)"},
    {"workers",
     "the processes that played: state, tournament, games, what went wrong and, with a scaled "
     "time control, their speed"},
    {"tests", "the test queue: state, games, Elo, LLR against its bounds, the engines' commits"},
    {"tune",
     "an SPSA tune's values now, start and bounds (the only tune unless NAME or --tournament "
     "names one); JSON adds every iteration's values, perturbation and result"},
};

bool applies(const QueryFlag& f, std::string_view kind) {
  if (f.kinds.empty()) return true;
  std::string_view k = f.kinds;
  while (!k.empty()) {
    const auto sp = k.find(' ');
    if (k.substr(0, sp) == kind) return true;
    if (sp == std::string_view::npos) break;
    k.remove_prefix(sp + 1);
  }
  return false;
}

// `text` in lines of at most 100 columns, each indented by 30 (the first line's indent is
// already written by the caller). A '\x01' is a space that does not break a line.
std::string wrapped(std::string_view text) {
  constexpr std::size_t kIndent = 30, kWidth = 100;
  std::string out;
  std::size_t column = kIndent;
  while (!text.empty()) {
    const auto sp = text.find(' ');
    const std::string_view word = text.substr(0, sp);
    text = sp == std::string_view::npos ? std::string_view() : text.substr(sp + 1);
    if (column > kIndent && column + 1 + word.size() > kWidth) {
      out += "\n" + std::string(kIndent, ' ');
      column = kIndent;
    } else if (column > kIndent) {
      out += ' ';
      ++column;
    }
    for (char c : word) out += c == '\x01' ? ' ' : c;
    column += word.size();
  }
  return out + "\n";
}

std::string flag_lines(std::string_view kind) {
  const std::string indent(30, ' ');
  std::string out;
  for (const auto& f : query_flags()) {
    if (!kind.empty() && !applies(f, kind)) continue;
    std::string head =
        "  " + std::string(f.flag) + (f.value.empty() ? "" : " " + std::string(f.value));
    if (head.size() < indent.size())
      head += std::string(indent.size() - head.size(), ' ');
    else
      head += "\n" + indent;
    out += head + wrapped(f.help);
    if (f.flag == "--termination") {
      // One name is never cut ("time forfeit").
      std::string names;
      for (const auto& n : termination_names()) {
        std::string unbroken = n;
        std::replace(unbroken.begin(), unbroken.end(), ' ', '\x01');
        names += (names.empty() ? "" : ", ") + unbroken;
      }
      out += indent + wrapped("one of: " + names);
    }
    if (kind.empty() && !f.kinds.empty()) out += indent + wrapped("(" + std::string(f.kinds) + ")");
  }
  return out;
}

const char* kExitText =
    "exit codes: 0 done; 1 a filter matches no engine, tournament or termination (the message\n"
    "names the close ones); 2 error\n";

}  // namespace

std::string query_options() {
  // The option lines (in parentheses: the kinds that take one), then the kinds.
  std::string out = flag_lines("") + "\nkinds:\n";
  for (const auto& k : kKinds) {
    std::string name = "  " + std::string(k.name);
    name += std::string(16 - name.size(), ' ');
    out += name + std::string(k.help) + "\n";
  }
  return out + "\n" + kExitText;
}

std::vector<QueryParam> query_params() {
  std::vector<QueryParam> out;
  for (const auto& f : query_flags())
    if (f.flag != "--db" && f.flag != "--format")
      out.push_back({std::string(f.flag.substr(2)), !f.value.empty()});
  return out;
}

namespace {

std::string kind_help(std::string_view kind) {
  for (const auto& k : kKinds)
    if (k.name == kind)
      return "usage: knightly query " + std::string(kind) + " [options]\n" + std::string(k.help) +
             "\n\noptions:\n" + flag_lines(kind) + "\n" + kExitText;
  return "";
}

std::expected<QueryOptions, std::string> parse_query_options(Args& args, std::string_view kind) {
  QueryOptions q;
  std::vector<std::string> known;
  for (const auto& f : query_flags()) known.emplace_back(f.flag);
  while (!args.empty()) {
    std::string a = args.take();
    if (a == "--help" || a == "-h") {
      q.help = true;
      continue;
    }
    // `knightly query tune NAME`: the tournament by its name alone.
    if (kind == "tune" && !a.empty() && a[0] != '-') {
      q.filter.tournaments.push_back(a);
      continue;
    }
    const QueryFlag* flag = nullptr;
    for (const auto& f : query_flags())
      if (f.flag == a) flag = &f;
    if (!flag)
      return std::unexpected("unknown option '" + printable(a) + "'" + suggestion_text(a, known) +
                             " (knightly query " + std::string(kind) + " --help lists them)");
    if (!applies(*flag, kind))
      return std::unexpected(a + " does not apply to query " + std::string(kind) + " (it is for " +
                             std::string(flag->kinds) + ")");
    std::string v;
    if (!flag->value.empty()) {
      auto value = args.value(a);
      if (!value) return std::unexpected(value.error() + " (" + std::string(flag->value) + ")");
      v = *value;
    }
    if (auto r = flag->apply(q, a, v); !r) return std::unexpected(r.error());
  }
  return q;
}

Cell text_or_null(const std::string& s) {
  return s.empty() ? null_cell() : cell(s);
}

int print(const Table& t, const QueryOptions& q, const char* name) {
  *q.out << t.render(q.format, name);
  return ExitOk;
}

int query_tournaments(const db::Store& store, const QueryOptions& q) {
  Table t({"id", "name", "kind", "status", "games", "seed", "started", "finished"});
  for (const auto& s : store.catalog().tournaments()) {
    const auto& x = s.tournament;
    t.add_row({cell((long long)x.id), cell(x.name), cell(db::kind_text(x.kind)),
               cell(db::status_text(x.status)), cell((long long)s.games),
               cell(std::to_string(x.seed)), cell(x.started_at), text_or_null(x.finished_at)});
  }
  return print(t, q, "tournaments");
}

int query_standings(const db::Store& store, const QueryOptions& q) {
  Table t({"rank", "engine", "games", "points", "wins", "draws", "losses", "score", "elo", "elo95",
           "note"});
  long long rank = 0;
  for (const auto& s : db::standings_from(player_pair_counts(store, q.filter, q.merge_by_name))) {
    const EloCells elo = elo_cells(stats::get_elo(stats::Trinomial{s.losses, s.draws, s.wins}), 1);
    t.add_row({cell(++rank), cell(s.engine), cell((long long)s.games), cell(s.points(), 1),
               cell((long long)s.wins), cell((long long)s.draws), cell((long long)s.losses),
               cell(100.0 * s.score(), 1), elo.elo, elo.error, text_or_null(elo.note)});
  }
  return print(t, q, "standings");
}

int query_games(const db::Store& store, QueryOptions q) {
  q.filter.newest_first = true;
  const bool default_limit = q.filter.limit == 0 && q.format == OutputFormat::Table;
  if (default_limit) q.filter.limit = 50;
  Table t({"id", "tournament", "round", "pair", "game", "white", "black", "result", "termination",
           "reason", "plies", "started", "duration_ms", "opening"});
  for (const auto& g : store.queries().games(q.filter))
    t.add_row({cell((long long)g.id), cell(g.tournament), cell((long long)g.game_id.round + 1),
               cell((long long)g.game_id.pair + 1), cell((long long)g.game_id.game_in_pair + 1),
               cell(g.white), cell(g.black), cell(result_token(g.result)), cell(termination_name(g.termination)), cell(g.reason),
               cell((long long)g.plies), cell(g.started_at), cell((long long)g.duration_ms),
               text_or_null(g.opening_source)});
  const int code = print(t, q, "games");
  // A cut list says so: on stderr, so that csv and json stay one document.
  if (q.filter.limit > 0 && static_cast<std::int64_t>(t.size()) == q.filter.limit) {
    const std::int64_t all = store.queries().count_games(q.filter);
    if (all > q.filter.limit)
      *q.err << "knightly: query games: " << t.size() << " of " << all
             << " games shown, newest first; " << all - q.filter.limit << " left out ("
             << (default_limit ? "a table shows 50: " : "") << "--limit " << all
             << " shows them all, --format csv or json shows all without --limit)\n";
  }
  return code;
}

// The game pairs (same opening, colours reversed) between each two engines, by name, from the
// side of the name that sorts first, and how many of their games are in no such pair.
struct NamePairs {
  stats::Pentanomial pairs;
  std::int64_t unpaired = 0;
};

std::map<std::pair<std::string, std::string>, NamePairs> name_pairs(const db::Store& store,
                                                                    const db::GameFilter& filter) {
  std::map<std::pair<std::string, std::string>, NamePairs> out;
  store.queries().for_each_pair_result(filter, [&](const db::PairResult& p) {
    const auto& g = p.games;
    if (g.size() == 2 && g[0].white == g[1].black && g[0].black == g[1].white &&
        g[0].white != g[0].black) {
      const auto key = std::minmax(g[0].white, g[0].black);
      out[key].pairs.add_pair(outcome_for(key.first, g[0]), outcome_for(key.first, g[1]));
      return;
    }
    for (const auto& x : g) ++out[std::minmax(x.white, x.black)].unpaired;
  });
  return out;
}

int query_h2h(const db::Store& store, const QueryOptions& q) {
  auto rows = db::head_to_head_from(player_pair_counts(store, q.filter, q.merge_by_name));
  if (q.format != OutputFormat::Table) {
    // Elo from the pairs when every game of the two is in a pair (pentanomial, as docs/
    // statistics.md says for paired games), else from the games. A row's label is a name
    // unless the name has several identities; those rows are never matched by name here.
    const auto paired = name_pairs(store, q.filter);
    Table t({"engine", "opponent", "games", "wins", "draws", "losses", "points", "score", "pairs",
             "ll", "ld", "wl_dd", "wd", "ww", "model", "elo", "elo95", "note"});
    for (const auto& h : rows) {
      long long n = h.wins + h.draws + h.losses;
      double pts = double(h.wins) + 0.5 * double(h.draws);
      const stats::Trinomial games{h.losses, h.draws, h.wins};
      stats::Pentanomial pairs;
      const auto it = paired.find(std::minmax(h.engine, h.opponent));
      if (it != paired.end() && it->second.unpaired == 0) {
        pairs = it->second.pairs;
        if (h.engine != it->first.first) {  // the other side's view
          std::swap(pairs.ll, pairs.ww);
          std::swap(pairs.ld, pairs.wd);
        }
      }
      const bool penta = pairs.pairs() > 0 && pairs.games() == games;
      const EloCells elo = elo_cells(penta ? stats::get_elo(pairs) : stats::get_elo(games), 1);
      const auto count = [&](std::int64_t c) { return penta ? cell((long long)c) : null_cell(); };
      t.add_row({cell(h.engine), cell(h.opponent), cell(n), cell((long long)h.wins),
                 cell((long long)h.draws), cell((long long)h.losses), cell(pts, 1),
                 cell(n ? 100.0 * pts / double(n) : 0.0, 1), count(pairs.pairs()), count(pairs.ll),
                 count(pairs.ld), count(pairs.wl + pairs.dd), count(pairs.wd), count(pairs.ww),
                 cell(penta ? "pentanomial" : "trinomial"), elo.elo, elo.error,
                 text_or_null(elo.note)});
    }
    return print(t, q, "h2h");
  }
  // A matrix: row engine's points against the column engine, out of the games they played.
  std::set<std::string> names;
  std::map<std::pair<std::string, std::string>, db::HeadToHead> cells;
  for (const auto& h : rows) {
    names.insert(h.engine);
    names.insert(h.opponent);
    cells[{h.engine, h.opponent}] = h;
  }
  std::vector<std::string> columns{"engine"};
  columns.insert(columns.end(), names.begin(), names.end());
  Table t(columns);
  for (const auto& a : names) {
    std::vector<Cell> row{cell(a)};
    for (const auto& b : names) {
      auto it = cells.find({a, b});
      if (a == b || it == cells.end()) {
        row.push_back(cell(std::string(a == b ? "-" : "")));
        continue;
      }
      const auto& h = it->second;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.1f/%lld", double(h.wins) + 0.5 * double(h.draws),
                    (long long)(h.wins + h.draws + h.losses));
      row.push_back(cell(std::string(buf)));
    }
    t.add_row(row);
  }
  return print(t, q, "h2h");
}

int query_engines(const db::Store& store, const QueryOptions& q) {
  Table t({"id", "name", "builtin", "command", "options", "uci_name", "uci_author", "sha256",
           "first_seen", "games", "last_played", "repo", "commit"});
  std::map<std::int64_t, db::EngineSourceRow> sources;  // engines built from source
  for (auto& r : store.test_queue().engine_sources()) sources[r.engine_id] = r;
  for (const auto& e : store.catalog().engines()) {
    if (!q.filter.engines.empty() && std::find(q.filter.engines.begin(), q.filter.engines.end(),
                                               e.info.name) == q.filter.engines.end())
      continue;
    t.add_row({cell((long long)e.id), cell(e.info.name), cell(e.info.builtin ? "yes" : "no"),
               text_or_null(e.info.command), text_or_null(e.info.options),
               text_or_null(e.info.uci_name), text_or_null(e.info.uci_author),
               text_or_null(e.info.binary_sha256), cell(e.first_seen), cell((long long)e.games),
               text_or_null(e.last_played),
               sources.count(e.id) ? cell(sources[e.id].repo) : null_cell(),
               sources.count(e.id) ? cell(sources[e.id].commit) : null_cell()});
  }
  return print(t, q, "engines");
}

int query_ratings(const db::Store& store, QueryOptions q) {
  if (!q.filter.engines.empty()) q.filter.both_engines_in_set = true;
  auto counts = player_pair_counts(store, q.filter, q.merge_by_name);
  std::map<std::string, int> index;
  std::vector<std::string> names;
  for (const auto& c : counts)
    for (const auto& n : {c.white, c.black})
      if (!index.count(n)) {
        index[n] = int(names.size());
        names.push_back(n);
      }
  if (names.size() < 2) {
    *q.err << "knightly: query ratings: fewer than two engines in the selected games\n";
    return ExitError;
  }
  std::map<std::pair<int, int>, stats::PairResults> agg;
  for (const auto& c : counts) {
    int w = index[c.white], b = index[c.black];
    int a = std::min(w, b), z = std::max(w, b);
    auto& p = agg[{a, z}];
    p.a = a;
    p.b = z;
    std::int64_t a_wins = w == a ? c.white_wins : c.black_wins;
    std::int64_t b_wins = w == a ? c.black_wins : c.white_wins;
    p.a_wins += a_wins;
    p.b_wins += b_wins;
    p.draws += c.draws;
  }
  std::vector<stats::PairResults> pairs;
  for (auto& [k, p] : agg) pairs.push_back(p);
  stats::RatingOptions options;
  options.names = names;
  options.simulations = q.simulations;
  options.anchor_rating = q.anchor_rating;
  if (!q.anchor.empty()) {
    auto it = index.find(q.anchor);
    if (it == index.end()) {
      *q.err << "knightly: query ratings: --anchor: no engine '" << q.anchor
             << "' in the selected games\n";
      return ExitError;
    }
    options.anchor = it->second;
  }
  auto ratings = stats::compute_ratings(int(names.size()), pairs, options);
  if (!ratings) {
    *q.err << "knightly: query ratings: " << ratings.error() << "\n";
    return ExitError;
  }
  // Group by group (Ordo's groups: engines joined by a chain of games), best rating first.
  std::vector<int> order(names.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const auto &x = ratings->engines[a], &y = ratings->engines[b];
    if (x.group != y.group) return x.group < y.group;
    return x.rating != y.rating ? x.rating > y.rating : names[a] < names[b];
  });
  const bool grouped = ratings->groups > 1;
  if (grouped) {
    // Each group named by its engines, so a reader knows which ratings compare.
    *q.err << "knightly: query ratings: " << ratings->groups
           << " groups of engines never played each other; each is rated on its own and ratings "
              "compare only within a group:\n";
    for (int g = 1; g <= ratings->groups; ++g) {
      std::string members;
      for (int i : order)
        if (ratings->engines[i].group == g) members += (members.empty() ? "" : ", ") + names[i];
      *q.err << "  group " << g << ": " << members << "\n";
    }
  }
  std::vector<std::string> columns{"rank",  "engine", "rating", "error95",
                                   "games", "points", "score",  "note"};
  if (grouped) columns.insert(columns.begin(), "group");
  Table t(columns);
  long long rank = 0;
  int group = 0;
  for (int i : order) {
    const auto& r = ratings->engines[i];
    if (r.group != group) rank = 0;  // ranks count within a group
    group = r.group;
    std::vector<Cell> row{cell(++rank),
                          cell(names[i]),
                          cell(r.rating, 1),
                          q.simulations > 0 ? cell(r.error95, 1) : null_cell(),
                          cell((long long)r.games),
                          cell(r.points, 1),
                          cell(r.games ? 100.0 * r.points / double(r.games) : 0.0, 1),
                          text_or_null(r.note)};
    if (grouped) row.insert(row.begin(), cell((long long)r.group));
    t.add_row(std::move(row));
  }
  return print(t, q, "ratings");
}

int query_terminations(const db::Store& store, const QueryOptions& q) {
  Table t({"termination", "reason", "count"});
  for (const auto& c : store.queries().termination_counts(q.filter, true))
    t.add_row({cell(c.termination), cell(c.reason), cell((long long)c.count)});
  return print(t, q, "terminations");
}

// Per engine: the games it lost by each fault and its moves' latency (Store::engine_health),
// the figures the end of a run prints.
int query_health(const db::Store& store, const QueryOptions& q) {
  Table t({"engine", "games", "time_losses", "crashes", "disconnects", "stalls", "illegal_moves",
           "latency_moves", "latency_mean_ms", "latency_max_ms"});
  for (const auto& h : store.queries().engine_health(q.filter)) {
    const bool known = h.latency_moves > 0;
    t.add_row({cell(h.engine), cell((long long)h.games), cell((long long)h.time_losses),
               cell((long long)(h.disconnects + h.stalls)), cell((long long)h.disconnects),
               cell((long long)h.stalls), cell((long long)h.illegal_moves),
               cell((long long)h.latency_moves), known ? cell(h.latency_mean_ms(), 1) : null_cell(),
               known ? cell((long long)h.latency_max_ms) : null_cell()});
  }
  return print(t, q, "health");
}

// What the fastchess block's first line names, from the stored settings: time control or limit,
// the first engine's Threads and Hash, the book (fields it cannot tell stay empty).
stats::MatchLabel stored_label(const db::Tournament& t) {
  const std::string& text = t.config_text;
  std::optional<Config> config;
  std::string tc_label;
  if (text.starts_with("knightly play ")) {
    if (auto words = split_words(std::string_view(text).substr(14)))
      if (auto play = parse_play_flags(*words)) config = play->config;
  } else if (text.starts_with("knightly sprt ")) {
    // "knightly sprt --new SPEC --base SPEC --tc TC --depth D --nodes N --book FILE ...".
    auto between = [&](const std::string& from, const std::string& to) {
      const auto a = text.find(" " + from + " ");
      if (a == std::string::npos) return std::string();
      const auto start = a + from.size() + 2;
      const auto b = text.find(" " + to + " ", start);
      return text.substr(start, b == std::string::npos ? std::string::npos : b - start);
    };
    Config c;
    for (const auto& spec : {between("--new", "--base"), between("--base", "--tc")})
      if (auto e = parse_engine_spec(spec)) c.engines.push_back(*e);
    c.openings.file = between("--book", "--elo0");
    if (const auto tc = between("--tc", "--depth"); !tc.empty()) tc_label = tc;
    if (const auto d = between("--depth", "--nodes"); !d.empty()) tc_label = "depth " + d;
    if (const auto n = between("--nodes", "--book"); !n.empty()) tc_label = n + " nodes";
    if (c.engines.size() == 2) config = std::move(c);
  } else if (auto cfg = parse_config_toml(text)) {
    config = std::move(*cfg);
  }
  if (!config || config->engines.size() != 2) return {};
  return interval_settings(*config, tc_label, true, true).label;
}

// SPRT figures of a stored two-engine tournament; its stored config gives the bounds unless
// flags override them.
int query_sprt(const db::Store& store, const QueryOptions& q) {
  std::optional<db::Tournament> t;
  if (q.filter.tournaments.empty()) {
    // The only SPRT in the database, or a list to choose from.
    std::vector<db::Tournament> tests;
    for (const auto& s : store.catalog().tournaments())
      if (s.tournament.status != db::TournamentStatus::Restarted &&
          stored_match(store, s.tournament).sprt)
        tests.push_back(s.tournament);
    if (tests.size() != 1) {
      *q.err << "knightly: query sprt: "
             << (tests.empty() ? "no tournament with an SPRT in " + store.path()
                               : std::to_string(tests.size()) + " SPRT tournaments in " +
                                     store.path() + "; name one with --tournament NAME:");
      for (const auto& x : tests) *q.err << "\n  " << x.name;
      *q.err << "\n";
      return ExitError;
    }
    t = tests[0];
  } else if (q.filter.tournaments.size() > 1) {
    *q.err << "knightly: query sprt: name one tournament with --tournament NAME\n";
    return ExitError;
  } else {
    t = store.catalog().find_tournament(q.filter.tournaments[0]);
  }
  if (!t) {
    *q.err << "knightly: query sprt: no tournament '" << q.filter.tournaments[0] << "' in "
           << store.path() << "\n";
    return ExitError;
  }
  const StoredMatch stored = stored_match(store, *t);
  stats::SprtConfig sprt = stored.sprt.value_or(stats::SprtConfig{});
  std::string first = stored.first;
  if (q.elo0) sprt.elo0 = *q.elo0;
  if (q.elo1) sprt.elo1 = *q.elo1;
  if (q.alpha) sprt.alpha = *q.alpha;
  if (q.beta) sprt.beta = *q.beta;
  if (!q.model.empty()) sprt.model = *stats::parse_model(q.model);
  if (auto v = stats::validate(sprt); !v) {
    *q.err << "knightly: query sprt: " << v.error() << "\n";
    return ExitError;
  }
  db::GameFilter f;
  f.tournament_ids = {t->id};
  auto results = store.queries().pair_results(f);
  std::set<std::string> names;
  for (const auto& p : results)
    for (const auto& g : p.games) {
      names.insert(g.white);
      names.insert(g.black);
      if (first.empty()) first = g.white;
    }
  if (names.size() != 2) {
    *q.err << "knightly: query sprt: tournament '" << t->name
           << "' does not have exactly two engines\n";
    return ExitError;
  }
  std::string second = *names.begin() == first ? *names.rbegin() : *names.begin();
  TwoEngineTally tally(first);
  for (const auto& p : results)
    for (const auto& g : p.games) tally.add(p.round, p.pair, g);
  const stats::Trinomial& games = tally.games();
  const stats::Pentanomial& pairs = tally.pairs();
  // From the pairs when the games come in pairs (fishtest), else from the games, as the run
  // decided and as the report's Match section shows them.
  const bool penta = pairs.pairs() > 0;
  auto status = penta ? stats::sprt_status(sprt, pairs) : stats::sprt_status(sprt, games);
  // A decided test shows the LLR it was decided on (games stored after it do not move it).
  const std::string decision = store.work().control(t->id).decision;
  const auto decided = decided_sprt(sprt, decision);
  if (decided) status = decided->status;
  auto elo = penta ? stats::get_elo(pairs) : stats::get_elo(games);
  if (q.format == OutputFormat::Table) {
    stats::MatchLabel label = stored_label(*t);
    label.first = first;
    label.second = second;
    *q.out << stats::fastchess_report(label, games, pairs, sprt, penta, status.llr);
    if (!decision.empty()) *q.out << "Decision: " << decision << "\n";
    return ExitOk;
  }
  Table t2({"tournament", "first", "second", "games", "wins",  "draws",    "losses",
            "pairs",      "ll",    "ld",     "wl_dd", "wd",    "ww",       "elo",
            "elo95",      "nelo",  "nelo95", "los",   "llr",   "lower",    "upper",
            "elo0",       "elo1",  "alpha",  "beta",  "model", "decision", "note"});
  const EloCells elo_text = elo_cells(elo, 2);
  t2.add_row({cell(t->name),
              cell(first),
              cell(second),
              cell((long long)games.games()),
              cell((long long)games.wins),
              cell((long long)games.draws),
              cell((long long)games.losses),
              cell((long long)pairs.pairs()),
              cell((long long)pairs.ll),
              cell((long long)pairs.ld),
              cell((long long)(pairs.wl + pairs.dd)),
              cell((long long)pairs.wd),
              cell((long long)pairs.ww),
              elo_text.elo,
              elo_text.error,
              elo.unbounded ? elo_text.elo : cell(elo.nelo, 2),
              elo.unbounded ? null_cell() : cell(elo.nelo95, 2),
              cell(elo.los * 100, 2),
              cell(status.llr, 4),
              cell(status.bounds.lower, 4),
              cell(status.bounds.upper, 4),
              cell(sprt.elo0, 2),
              cell(sprt.elo1, 2),
              cell(sprt.alpha, 3),
              cell(sprt.beta, 3),
              cell(stats::model_name(sprt.model)),
              cell(stats::decision_name(status.decision)),
              text_or_null(elo_text.note)});
  return print(t2, q, "sprt");
}

// A tune's values: the one named, or the only one in the database.
int query_tune(const db::Store& store, const QueryOptions& q) {
  std::optional<db::Tournament> t;
  if (q.filter.tournaments.size() > 1) {
    *q.err << "knightly: query tune: name one tune\n";
    return ExitError;
  }
  if (q.filter.tournaments.empty()) {
    std::vector<db::Tournament> tunes;
    for (const std::int64_t id : store.tunes().tune_ids())
      if (auto x = store.catalog().tournament(id);
          x && x->status != db::TournamentStatus::Restarted)
        tunes.push_back(*x);
    if (tunes.size() != 1) {
      *q.err << "knightly: query tune: "
             << (tunes.empty() ? "no tune in " + store.path()
                               : std::to_string(tunes.size()) + " tunes in " + store.path() +
                                     "; name one (knightly query tune NAME):");
      for (const auto& x : tunes) *q.err << "\n  " << x.name;
      *q.err << "\n";
      return ExitError;
    }
    t = tunes[0];
  } else {
    t = store.catalog().find_tournament(q.filter.tournaments[0]);
  }
  if (!t) {
    *q.err << "knightly: query tune: no tournament '" << printable(q.filter.tournaments[0])
           << "' in " << store.path() << "\n";
    return ExitError;
  }
  const auto tune = store.tunes().tune(t->id);
  if (!tune) {
    *q.err << "knightly: query tune: tournament '" << t->name << "' in " << store.path()
           << " is not a tune\n";
    return ExitError;
  }
  if (q.format == OutputFormat::Json) {
    *q.out << tune_json(*t, *tune);
    return ExitOk;
  }
  return print(tune_table(*tune), q, "tune");
}

// Every worker that played the filtered games, with what went wrong on it (fishtest finds bad
// workers the same way: a machine whose engines crash or lose on time).
int query_workers(const db::Store& store, const QueryOptions& q) {
  std::map<std::int64_t, db::WorkerState> states;
  for (auto& w : store.work().worker_states()) states[w.id] = std::move(w);
  Table t({"id", "host", "pid", "state", "tournament", "started", "last_seen", "games", "crashes",
           "time_losses", "illegal_moves", "superseded", "nps", "tc_factor", "speed_note"});
  // Speeds measured for a scaled time control (fishtest's); an outlier is named.
  std::map<std::int64_t, db::WorkerSpeed> speeds;
  std::map<std::int64_t, std::string> notes;
  const auto measured = store.test_queue().worker_speeds();
  for (const auto& s : measured) speeds[s.worker_id] = s;
  for (auto& [id, note] : speed_notes(measured, q.speed_ratio)) notes[id] = note;
  // A worker renews its leases every quarter of the lease (30 s unless --lease says): one not
  // seen for two minutes while its tournament runs has stopped, killed or cut off.
  constexpr std::int64_t kGoneMs = 120000;
  for (const auto& w : store.work().workers(q.filter)) {
    const db::WorkerState& s = states[w.id];
    const auto measured_speed = speeds.find(w.id);
    const db::WorkerSpeed* speed =
        measured_speed == speeds.end() ? nullptr : &measured_speed->second;
    const char* state = "finished";
    if (s.leases_expired > 0)
      state = "lease lost";
    else if (s.leases > 0)
      state = "alive";
    else if (s.tournament_running)
      state = s.seen_ago_ms <= kGoneMs ? "alive" : "lease lost";
    std::string tournaments;
    for (const auto& name : s.tournaments) tournaments += (tournaments.empty() ? "" : ", ") + name;
    t.add_row({cell((long long)w.id), cell(w.identity.host), cell((long long)w.identity.pid),
               cell(state), text_or_null(tournaments), cell(w.identity.started_at),
               text_or_null(w.last_seen), cell((long long)w.games), cell((long long)w.crashes),
               cell((long long)w.time_losses), cell((long long)w.illegal_moves),
               cell((long long)w.superseded), speed ? cell(speed->nps, 0) : null_cell(),
               speed ? cell(speed->tc_factor, 3) : null_cell(), text_or_null(notes[w.id])});
  }
  return print(t, q, "workers");
}

// A filter that names no engine, tournament or termination the database has: a message with
// the close names and exit 1, never an empty table that looks like "no games".
constexpr int kNoMatch = 1;

std::optional<std::string> unmatched_filter(const db::Store& store, const QueryOptions& q) {
  const auto miss = [&](const std::string& flag, const std::string& value, const std::string& what,
                        const std::vector<std::string>& names) {
    // A typo gets the closest name; a part of a name ("mate") the names that hold it.
    std::string hint;
    if (!closest_name(value, names) && !value.empty())
      for (const auto& n : names)
        if (n.find(value) != std::string::npos)
          hint += (hint.empty() ? "" : ", ") + ("'" + n + "'");
    return flag + " '" + printable(value) + "': no " + what + " of that name in " + store.path() +
           (hint.empty() ? suggestion_text(value, names) : "; did you mean " + hint + "?");
  };
  if (!q.filter.tournaments.empty()) {
    std::vector<std::string> names;
    for (const auto& s : store.catalog().tournaments())
      if (s.tournament.status != db::TournamentStatus::Restarted)
        names.push_back(s.tournament.name);
    for (const auto& name : q.filter.tournaments)
      if (std::find(names.begin(), names.end(), name) == names.end())
        return miss("--tournament", name, "tournament", names);
  }
  if (!q.filter.engines.empty() || !q.anchor.empty()) {
    std::set<std::string> unique;
    for (const auto& e : store.catalog().engines()) unique.insert(e.info.name);
    const std::vector<std::string> names(unique.begin(), unique.end());
    for (const auto& name : q.filter.engines)
      if (!unique.count(name)) return miss("--engine", name, "engine", names);
  }
  if (!q.filter.termination.empty()) {
    std::vector<std::string> names = termination_names();
    for (const auto& c : store.queries().termination_counts(db::GameFilter{}))
      if (std::find(names.begin(), names.end(), c.termination) == names.end())
        names.push_back(c.termination);
    if (std::find(names.begin(), names.end(), q.filter.termination) == names.end())
      return miss("--termination", q.filter.termination, "termination", names);
  }
  return std::nullopt;
}

int dispatch(const db::Store& store, const std::string& what, const QueryOptions& q) {
  try {
    if (auto miss = unmatched_filter(store, q)) {
      *q.err << "knightly: query " << what << ": " << *miss << "\n";
      return kNoMatch;
    }
    if (what == "tournaments") return query_tournaments(store, q);
    if (what == "standings") return query_standings(store, q);
    if (what == "games") return query_games(store, q);
    if (what == "h2h") return query_h2h(store, q);
    if (what == "engines") return query_engines(store, q);
    if (what == "ratings") return query_ratings(store, q);
    if (what == "terminations") return query_terminations(store, q);
    if (what == "health") return query_health(store, q);
    if (what == "sprt") return query_sprt(store, q);
    if (what == "workers") return query_workers(store, q);
    if (what == "tests") return print(tests_table(store, q.filter.tournaments), q, "tests");
    if (what == "tune") return query_tune(store, q);
  } catch (const db::StoreException& e) {
    *q.err << "knightly: " << e.what() << "\n";
    return ExitError;
  }
  *q.err << "knightly: query: unknown subcommand '" << what << "'\n";
  return ExitError;
}

bool known_kind(const std::string& what) {
  for (const auto& k : kKinds)
    if (k.name == what) return true;
  return false;
}

}  // namespace

StoredMatch stored_match(const db::Store& store, const db::Tournament& t) {
  StoredMatch m;
  if (auto stored = store.work().sprt_settings(t.id)) {
    stats::SprtConfig sprt;
    sprt.elo0 = stored->elo0;
    sprt.elo1 = stored->elo1;
    sprt.alpha = stored->alpha;
    sprt.beta = stored->beta;
    sprt.model = stats::parse_model(stored->model).value_or(sprt.model);
    m.sprt = sprt;
  }
  if (auto cfg = parse_config_toml(t.config_text); cfg) {
    // A tournament stored before its SPRT settings were: its TOML config still says.
    if (!m.sprt && cfg->sprt.enabled) m.sprt = stats_sprt_config(cfg->sprt);
    if (!cfg->engines.empty()) m.first = cfg->engines[0].name;
  }
  return m;
}

int cmd_query(Args& args) {
  if (args.empty()) {
    std::cerr << "knightly: query: which? tournaments, standings, games, h2h, engines, ratings, "
                 "terminations, health, sprt, workers, tests, tune (knightly help query says "
                 "more)\n";
    return ExitError;
  }
  std::string what = args.take();
  if (what == "--help" || what == "-h" || what == "help") {
    std::cout << usage_of(*find_subcommand("query"));
    return ExitOk;
  }
  if (!known_kind(what)) {
    std::vector<std::string> kinds;
    for (const auto& k : kKinds) kinds.emplace_back(k.name);
    std::cerr << "knightly: query: unknown kind '" << printable(what) << "'"
              << suggestion_text(what, kinds) << "\n";
    return ExitError;
  }
  auto q = parse_query_options(args, what);
  if (!q) {
    std::cerr << "knightly: query " << what << ": " << q.error() << "\n";
    return ExitError;
  }
  if (q->help) {
    std::cout << kind_help(what);
    return ExitOk;
  }
  db::StoreOptions so;
  so.mode = db::OpenMode::ReadOnly;
  auto store = db::Store::open(q->db, so);
  if (!store) {
    std::cerr << "knightly: " << store.error().message << "\n";
    return ExitError;
  }
  return dispatch(*store, what, *q);
}

int run_query(const db::Store& store, const std::string& what, Args& args, std::ostream& out,
              std::ostream& err) {
  auto q = parse_query_options(args, what);
  if (!q) {
    err << "knightly: query " << what << ": " << q.error() << "\n";
    return ExitError;
  }
  if (q->db_given) {
    err << "knightly: query " << what << ": --db is not accepted here (the database is open)\n";
    return ExitError;
  }
  q->out = &out;
  q->err = &err;
  return dispatch(store, what, *q);
}

}  // namespace knightly::runner

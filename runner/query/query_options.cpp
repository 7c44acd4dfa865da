// The options of `knightly query`: their table, its help text, and the parser.
#include "runner/query/query_options.h"

#include <algorithm>

#include "db/records/game_record.h"
#include "runner/config/choices.h"
#include "runner/config/closest_name.h"
#include "runner/output/printable.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {
namespace {

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

}  // namespace

std::vector<std::string> termination_names() {
  std::vector<std::string> names;
  for (int t = static_cast<int>(Termination::Checkmate);
       t <= static_cast<int>(Termination::FalseClaim); ++t)
    names.push_back(termination_name(static_cast<Termination>(t)));
  return names;
}

namespace {

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

std::vector<std::string> query_kind_names() {
  std::vector<std::string> kinds;
  for (const auto& k : kKinds) kinds.emplace_back(k.name);
  return kinds;
}

bool is_query_kind(std::string_view kind) {
  for (const auto& k : kKinds)
    if (k.name == kind) return true;
  return false;
}

std::string query_kind_help(std::string_view kind) {
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

}  // namespace knightly::runner

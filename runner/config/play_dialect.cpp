#include <algorithm>
#include <string>

#include "runner/config/engine_source.h"
#include "runner/config/play_flag_parser.h"

namespace knightly::runner::play {
namespace {

std::string games_text(const Games& g) {
  const long long n = 1LL * g.rounds * g.games;
  std::string out = std::to_string(n) + (n == 1 ? " game" : " games") + " per encounter";
  if (g.repeat) return out + " in pairs (one opening, colours reversed)";
  return out + (n == 1 ? "" : ", each from its own opening");
}

}  // namespace

Dialect FlagParser::dialect() const {
  return fastchess_marks_.empty() ? Dialect::Cutechess : Dialect::Fastchess;
}

Games FlagParser::games_of(Dialect d) const {
  Games g;
  if (d == Dialect::Fastchess) {
    // fastchess: -games (or -repeat N) is 1 or 2 games per round from one opening; a larger
    // -games is swapped with -rounds (its fixConfig). Defaults: 2 rounds of 2 games.
    int games = fast_games_.value_or(2), rounds = rounds_.value_or(2);
    if (games > 2) std::swap(games, rounds);
    if (games > 2) {
      g.error = "at most 2 games per round: -games " + std::to_string(games);
      return g;
    }
    g.rounds = rounds;
    g.games = games;
    g.repeat = games == 2;
    return g;
  }
  // cutechess: -games per encounter, -rounds multiplies them; -repeat plays each opening
  // twice in a row, which is a pair of games in Knightly's schedule.
  const int games = games_.value_or(1), rounds = rounds_.value_or(1);
  g.rounds = rounds;
  g.games = games;
  g.repeat = repeat_.value_or(1) == 2;
  if (g.repeat && games % 2 == 1) {
    // An odd number of games per round pairs across rounds in cutechess: -rounds 30 -repeat
    // is 15 pairs, -rounds 5 -repeat two pairs and a last game alone.
    const long long total = 1LL * games * rounds;
    if (total > 2LL * 2147483647) {
      g.error = "more games than can be counted";
      return g;
    }
    g.rounds = total % 2 == 0 ? static_cast<int>(total / 2) : 1;
    g.games = total % 2 == 0 ? 2 : static_cast<int>(total);
  }
  return g;
}

stats::EloModel FlagParser::model_of(Dialect d) const {
  if (given("-sprt model")) return out_.config.sprt.model;
  return d == Dialect::Cutechess ? stats::EloModel::Cutechess : stats::EloModel::Normalized;
}

void FlagParser::finish() {
  Config& c = out_.config;
  auto& t = c.tournament;
  auto& o = c.output;
  for (const char* tb : {"-tbpieces", "-tbignore50", "-tbadjudicate"})
    if (given(tb) && !t.adjudication.tablebase.enabled)
      fail(tb, "needs -tb PATH (the Syzygy tables' directory)");

  // Engine words of both tools; a word only one tool has says which line this is.
  auto engine_word = [&](const std::string& where, const std::string& w, EngineConfig& e) {
    std::string key = w.substr(0, w.find('='));
    if (key.starts_with("option.")) key = "option.NAME";
    if (key.starts_with("env.")) key = "env.NAME";
    for (const MatchKey* k : keys_by_flag("-engine"))
      if (k->word == key) mark(*k, key + (k->type == ValueType::Flag ? "" : "="));
    if (auto problem = apply_engine_word(w, e)) fail(where, *problem);
  };
  std::vector<EngineConfig> engines;
  for (std::size_t i = 0; i < engine_words_.size(); ++i) {
    EngineConfig e;
    for (const auto& w : engine_words_[i]) engine_word("-engine #" + std::to_string(i + 1), w, e);
    // As both tools do, -each is applied after the engine's own words and overrides them.
    for (const auto& w : each_words_) engine_word("-each", w, e);
    engines.push_back(std::move(e));
  }
  const Dialect line = dialect();  // every option and engine word has been seen
  out_.dialect = line;
  for (std::size_t i = 0; i < engines.size(); ++i) {
    EngineConfig& e = engines[i];
    // fastchess names an engine after its program without the extension.
    if (line == Dialect::Fastchess && e.name.empty() && !e.command.empty()) {
      default_engine_name(e);
      if (const auto dot = e.name.rfind('.'); dot != std::string::npos && dot > 0)
        e.name = e.name.substr(0, dot);
    }
    default_engine_name(e);
    if (auto problem = check_engine_source(e)) fail("-engine #" + std::to_string(i + 1), *problem);
    c.engines.push_back(std::move(e));
  }

  // The games, each tool's way.
  const Games games = games_of(line);
  if (!games.error.empty())
    fail("-games", (line == Dialect::Fastchess ? "fastchess plays " : "") + games.error);
  t.rounds = games.rounds;
  t.games_per_encounter = games.games;
  t.repeat = games.repeat;
  if (t.repeat && t.games_per_encounter % 2 == 1)
    note("-repeat with " + std::to_string(t.games_per_encounter) +
         " game(s) per encounter: the last game of each encounter has no partner");
  if (opening_policy_ == "round" && (c.engines.size() > 2 || t.games_per_encounter > 2))
    fail("-openings",
         "policy=round: one opening for a whole round of several encounters is "
         "not supported; Knightly gives every game pair its own opening");

  // The SPRT: cutechess-cli's own test on a cutechess-cli line, fastchess's on its.
  if (c.sprt.enabled) c.sprt.model = model_of(line);
  if (!o.format)
    o.format = line == Dialect::Fastchess ? OutputStyle::Fastchess : OutputStyle::Cutechess;
  // Pairs decide the report and the SPRT only as fastchess does: its own output, game
  // pairs, a model defined on them (its fixConfig and SPRT::isValid).
  if (!given("-report penta")) o.report_penta = line == Dialect::Fastchess;
  if (o.format == OutputStyle::Cutechess || !t.repeat || t.games_per_encounter != 2)
    o.report_penta = false;
  if (c.sprt.enabled && stats::trinomial_only(c.sprt.model) && o.report_penta) {
    o.report_penta = false;
    if (line == Dialect::Fastchess)
      note("-sprt model=" + choice_name(c.sprt.model) +
           ": computed on single games, so the report is of single games too (as fastchess "
           "does)");
  }
  if (!given("-ratinginterval")) o.rating_interval = o.format == OutputStyle::Fastchess ? 10 : 0;
  if (!given("-scoreinterval")) o.score_interval = 1;

  // The PGN Event tag: cutechess takes one word, fastchess joins them.
  if (!event_words_.empty()) {
    if (line == Dialect::Cutechess && event_words_.size() > 1)
      fail("-event", "takes one name (quote it: -event \"A B\"), got " +
                         std::to_string(event_words_.size()) + " words");
    o.event.clear();
    for (const auto& w : event_words_) o.event += w;
  } else {
    o.event = line == Dialect::Fastchess ? "Fastchess Tournament" : "?";
  }

  // Where the line does not say whose it is and the tools would play another match.
  if (fastchess_marks_.empty() && cutechess_marks_.empty()) {
    const Games other = games_of(Dialect::Fastchess);
    std::string differs;
    if (!other.error.empty())
      differs = "fastchess would refuse it (" + other.error + ")";
    else if (!(other == games_of(Dialect::Cutechess)))
      differs = "fastchess would play " + games_text(other);
    if (c.sprt.enabled && !given("-sprt model"))
      differs += std::string(differs.empty() ? "fastchess would" : ", and") +
                 " run its normalized SPRT on pairs";
    if (!differs.empty())
      note("read as a cutechess-cli command line (no option only fastchess has): " +
           games_text(games) + (c.sprt.enabled ? ", cutechess-cli's SPRT (BayesElo)" : "") + "; " +
           differs +
           " (an option only fastchess has, such as -output format=fastchess, "
           "makes it a fastchess line)");
  } else if (!fastchess_marks_.empty() && !cutechess_marks_.empty()) {
    note("read as a fastchess command line (" + fastchess_marks_.front() +
         "), although cutechess-cli's " + cutechess_marks_.front() +
         " is there too: fastchess's games, SPRT and output");
  }
}

}  // namespace knightly::runner::play

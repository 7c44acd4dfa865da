#include "engine/uci/options.h"

#include <algorithm>
#include <cctype>

#include "engine/base/ascii.h"
#include "engine/base/int_text.h"
#include "engine/eval/evaluator.h"

namespace knightly::engine {

using search::Algorithm;
using search::SearchConfig;

namespace {

using base::lower;

const char* const AlgorithmNames[] = {"random",  "greedy",    "minimax",
                                      "negamax", "alphabeta", "mcts"};

std::vector<OptionSpec> make_specs() {
  const SearchConfig d;
  auto b = [](bool v) { return std::string(v ? "true" : "false"); };
  return {
      {"Search",
       OptionType::Combo,
       algorithm_name(d.algorithm),
       0,
       0,
       {"random", "greedy", "minimax", "negamax", "alphabeta", "mcts"}},
      {"Eval", OptionType::String, d.eval, 0, 0, {}},
      {"Hash", OptionType::Spin, std::to_string(d.hash_mb), 0, 4096, {}},
      {"Clear Hash", OptionType::Button, "", 0, 0, {}},
      {"IterativeDeepening", OptionType::Check, b(d.iterative_deepening), 0, 0, {}},
      {"MoveOrdering", OptionType::Check, b(d.move_ordering), 0, 0, {}},
      {"Quiescence", OptionType::Check, b(d.quiescence), 0, 0, {}},
      {"Pruning", OptionType::Check, b(d.pruning), 0, 0, {}},
      {"Shuffle", OptionType::Check, b(d.shuffle), 0, 0, {}},
      {"EvalNoise", OptionType::Spin, std::to_string(d.eval_noise), 0, 10000, {}},
      {"KnightValue", OptionType::Spin, std::to_string(d.knight_value), 0, 2000, {}},
      {"RandomMargin", OptionType::Spin, std::to_string(d.random_margin), 0, 10000, {}},
      {"Seed", OptionType::Spin, std::to_string(d.seed), 0, 2147483647, {}},
      {"OwnBook", OptionType::Check, b(d.own_book), 0, 0, {}},
      {"BookFile", OptionType::String, d.book_file.empty() ? "<empty>" : d.book_file, 0, 0, {}},
      {"BookDepth", OptionType::Spin, std::to_string(d.book_depth), 0, 1000, {}},
      {"BookBestMove", OptionType::Check, b(d.book_best), 0, 0, {}},
      {"UCI_Chess960", OptionType::Check, b(d.chess960), 0, 0, {}},
      {"MctsPlayout",
       OptionType::Combo,
       d.mcts_eval_playouts ? "eval" : "random",
       0,
       0,
       {"random", "eval"}},
      {"MctsPlayouts", OptionType::Spin, std::to_string(d.mcts_playouts), 1, 100000000, {}},
      {"MctsExploration", OptionType::Spin, std::to_string(d.mcts_exploration), 0, 1000, {}},
      {"DefaultDepth", OptionType::Spin, std::to_string(d.default_depth), 1, 64, {}},
      {"Move Overhead", OptionType::Spin, std::to_string(d.move_overhead_ms), 0, 5000, {}},
  };
}

std::expected<bool, std::string> parse_check(std::string_view name, std::string_view v) {
  std::string l = lower(v);
  if (l == "true") return true;
  if (l == "false") return false;
  return std::unexpected(std::string(name) + " expects true or false, got '" + std::string(v) +
                         "'");
}

}  // namespace

std::string algorithm_name(Algorithm a) {
  return AlgorithmNames[int(a)];
}

const std::vector<OptionSpec>& option_specs() {
  static const std::vector<OptionSpec> specs = make_specs();  // immutable after first use
  return specs;
}

std::vector<std::string> option_lines() {
  std::vector<std::string> lines;
  for (const auto& o : option_specs()) {
    std::string s = "option name " + o.name + " type ";
    switch (o.type) {
      case OptionType::Check:
        s += "check default " + o.default_value;
        break;
      case OptionType::Spin:
        s += "spin default " + o.default_value + " min " + std::to_string(o.min) + " max " +
             std::to_string(o.max);
        break;
      case OptionType::Combo:
        s += "combo default " + o.default_value;
        for (const auto& v : o.values) s += " var " + v;
        break;
      case OptionType::String:
        s += "string default " + o.default_value;
        break;
      case OptionType::Button:
        s += "button";
        break;
    }
    lines.push_back(std::move(s));
  }
  return lines;
}

std::expected<void, std::string> apply_option(SearchConfig& config, std::string_view name,
                                              std::string_view value) {
  const std::string key = lower(name);
  const OptionSpec* spec = nullptr;
  for (const auto& o : option_specs())
    if (lower(o.name) == key) spec = &o;
  if (!spec) return std::unexpected("unknown option '" + std::string(name) + "'");
  const std::string& n = spec->name;
  switch (spec->type) {
    case OptionType::Button:
      return std::unexpected("option '" + n + "' is a button");
    case OptionType::Check: {
      auto v = parse_check(n, value);
      if (!v) return std::unexpected(v.error());
      if (n == "IterativeDeepening") config.iterative_deepening = *v;
      if (n == "MoveOrdering") config.move_ordering = *v;
      if (n == "Quiescence") config.quiescence = *v;
      if (n == "Pruning") config.pruning = *v;
      if (n == "Shuffle") config.shuffle = *v;
      if (n == "OwnBook") config.own_book = *v;
      if (n == "BookBestMove") config.book_best = *v;
      if (n == "UCI_Chess960") config.chess960 = *v;
      return {};
    }
    case OptionType::Spin: {
      std::string_view t = value;
      while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
      while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
      const auto parsed = base::parse_int(n, t, spec->min, spec->max);
      if (!parsed) return std::unexpected(parsed.error());
      const std::int64_t v = *parsed;
      if (n == "Hash") config.hash_mb = int(v);
      if (n == "EvalNoise") config.eval_noise = int(v);
      if (n == "KnightValue") config.knight_value = int(v);
      if (n == "RandomMargin") config.random_margin = int(v);
      if (n == "Seed") config.seed = std::uint64_t(v);
      if (n == "MctsPlayouts") config.mcts_playouts = int(v);
      if (n == "MctsExploration") config.mcts_exploration = int(v);
      if (n == "DefaultDepth") config.default_depth = int(v);
      if (n == "Move Overhead") config.move_overhead_ms = int(v);
      if (n == "BookDepth") config.book_depth = int(v);
      return {};
    }
    case OptionType::Combo: {
      std::string v = lower(value);
      while (!v.empty() && v.back() == ' ') v.pop_back();
      if (std::find(spec->values.begin(), spec->values.end(), v) == spec->values.end()) {
        std::string all;
        for (const auto& x : spec->values) all += (all.empty() ? "" : ", ") + x;
        return std::unexpected(n + " expects one of " + all + ", got '" + std::string(value) + "'");
      }
      if (n == "Search") {
        for (int i = 0; i < 6; ++i)
          if (v == AlgorithmNames[i]) config.algorithm = Algorithm(i);
      }
      if (n == "MctsPlayout") config.mcts_eval_playouts = v == "eval";
      return {};
    }
    case OptionType::String: {
      std::string v(value);
      if (v == "<empty>") v.clear();
      if (n == "Eval") {
        auto ev = eval::Evaluator::parse(v);
        if (!ev)
          return std::unexpected("Eval '" + v + "' at character " +
                                 std::to_string(ev.error().offset + 1) + ": " + ev.error().message);
        config.eval = ev->spec();
      }
      if (n == "BookFile") config.book_file = v;
      return {};
    }
  }
  return {};
}

}  // namespace knightly::engine

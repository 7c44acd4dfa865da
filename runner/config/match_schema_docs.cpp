#include "runner/config/match_schema.h"

namespace knightly::runner {
namespace {

using T = ValueType;
using S_ = Support;

std::string type_placeholder(const MatchKey& k) {
  if (!k.placeholder.empty()) return std::string(k.placeholder);
  switch (k.type) {
    case T::Integer:
    case T::Unsigned:
      return "N";
    case T::Number:
      return "X";
    case T::Boolean:
      return "true|false";
    case T::Choice: {
      std::string out;
      for (const auto& c : k.choices()) out += (out.empty() ? "" : "|") + c;
      return out;
    }
    case T::Text:
      return "TEXT";
    default:
      return "";
  }
}

// "-sprt elo0=X", "-concurrency N", "-recover".
std::string flag_usage(const MatchKey& k) {
  std::string out(k.flag);
  if (!k.word.empty()) {
    const std::string ph = type_placeholder(k);
    return out + " " + std::string(k.word) + (k.type == T::Flag ? "" : "=" + ph);
  }
  if (k.type == T::Flag) return out;
  return out + " " + type_placeholder(k);
}

std::string knightly_usage(const MatchKey& k) {
  if (k.type == T::Flag) return std::string(k.knightly);
  return std::string(k.knightly) + " " + type_placeholder(k);
}

// TOML "tournament.concurrency" as docs write it: "[tournament] concurrency".
std::string toml_text(std::string_view toml) {
  const auto dot = toml.find('.');
  if (dot == std::string_view::npos) return toml == "engine" ? "[[engine]]" : std::string(toml);
  std::string table(toml.substr(0, dot));
  std::string key(toml.substr(dot + 1));
  if (table == "engine") return "[[engine]] " + key;
  if (table == "tune" && key == "param") return "[[tune.param]]";
  if (table == "tune" && key.starts_with("param.")) return "[[tune.param]] " + key.substr(6);
  const auto second = key.find('.');
  if (second != std::string::npos)  // adjudication.draw.score: a key of an inline table
    return "[" + table + "] " + key.substr(0, second) + " = { " + key.substr(second + 1) + " }";
  return "[" + table + "] " + key;
}

std::string markdown_cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::string schema_markdown() {
  std::string out =
      "| option | TOML | value (default) | defines the match | Knightly | cutechess-cli | "
      "fastchess |\n|---|---|---|---|---|---|---|\n";
  auto anchor = [](const AnchorSpelling& a) -> std::string {
    switch (a.support) {
      case S_::Same:
        return a.note.empty() ? "same" : "same (" + std::string(a.note) + ")";
      case S_::Differs:
        return "differs: " + std::string(a.note);
      default:
        return a.note.empty() ? "—" : "— (" + std::string(a.note) + ")";
    }
  };
  for (const auto& k : match_schema()) {
    std::string option;
    if (!k.flag.empty()) option = "`" + flag_usage(k) + "`";
    if (!k.knightly.empty()) {
      std::string which;
      if (k.commands == CommandSprt) which = " (sprt)";
      if (k.commands == CommandPlay) which = " (play)";
      option += (option.empty() ? "" : ", ") + ("`" + knightly_usage(k) + "`") + which;
    }
    const bool refused = !k.refused.empty() || !k.no_effect.empty();
    std::string value;
    if (!refused && k.type != T::Words && k.type != T::Flag && k.type != T::Text)
      value = expected_text(k);
    if (!refused && !k.fallback.empty())
      value += (value.empty() ? "default: " : "; default: ") + std::string(k.fallback);
    // "-bookmode: no effect; a Polyglot book ..." -> "a Polyglot book ...".
    auto reason = [](std::string_view note) {
      const auto at = note.find("no effect; ");
      return std::string(at == std::string_view::npos ? note : note.substr(at + 11));
    };
    std::string knightly(k.meaning);
    if (!k.refused.empty() && !k.no_effect.empty())
      knightly =
          "accepted, no effect: " + reason(k.no_effect) + "; refused: " + std::string(k.refused);
    else if (!k.refused.empty())
      knightly = "refused: " + std::string(k.refused);
    else if (!k.no_effect.empty())
      knightly = "accepted, no effect: " + reason(k.no_effect);
    out += "| " + markdown_cell(option) + " | " +
           markdown_cell(k.toml.empty() ? "—" : "`" + toml_text(k.toml) + "`") + " | " +
           markdown_cell(value) + " | " +
           (refused                 ? ""
            : k.role == Role::Match ? "yes"
            : k.role == Role::Name  ? "names it"
                                    : "") +
           " | " + markdown_cell(knightly) + " | " + markdown_cell(anchor(k.cutechess)) + " | " +
           markdown_cell(anchor(k.fastchess)) + " |\n";
  }
  return out;
}

std::string schema_help(Command command) {
  std::string out;
  auto line = [&](const std::string& usage, const MatchKey& k) {
    std::string meaning(k.meaning);
    if (meaning.empty()) return;
    if (const auto stop = meaning.find(". "); stop != std::string::npos)
      meaning = meaning.substr(0, stop + 1);
    std::string text = "  " + usage;
    if (text.size() < 30)
      text += std::string(30 - text.size(), ' ');
    else
      text += "  ";
    out += text + meaning;
    if (!k.fallback.empty() && k.type != T::Flag)
      out += " Default: " + std::string(k.fallback) + ".";
    out += "\n";
  };
  for (const auto& k : match_schema()) {
    if (!k.knightly.empty() && (k.commands & command)) line(knightly_usage(k), k);
    if (command == CommandPlay && !k.flag.empty() && k.refused.empty() && k.no_effect.empty() &&
        k.word.empty())
      line(flag_usage(k), k);
    if (command == CommandPlay && !k.flag.empty() && !k.word.empty() && k.refused.empty() &&
        k.flag != "-engine")
      line(flag_usage(k), k);
  }
  if (command == CommandPlay)
    out +=
        "  Engine words (-engine, -each): cmd= name= dir= arg= args= option.NAME= env.NAME=\n"
        "    proto= tc= st= timemargin= depth= plies= nodes= restart= ponder builtin=\n"
        "    repo= ref= build= subdir= bench= (an engine built from its source)\n"
        "  Every option of cutechess-cli and fastchess, and what Knightly does with it: "
        "docs/cli.md.\n";
  return out;
}

}  // namespace knightly::runner

#include "runner/source/bench_output.h"

#include <cctype>
#include <charconv>
#include <string>
#include <vector>

namespace knightly::runner {
namespace {

// A line as words: letters and digits, lower case; everything else separates (OpenBench's
// normalisation: "Nodes/second : 12" -> "nodes second 12").
std::vector<std::string> words_of(std::string_view line) {
  std::vector<std::string> words;
  std::string w;
  for (char c : line) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      w += static_cast<char>(std::tolower(u));
    } else if (!w.empty()) {
      words.push_back(std::move(w));
      w.clear();
    }
  }
  if (!w.empty()) words.push_back(std::move(w));
  return words;
}

std::optional<std::uint64_t> count(const std::string& word) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (word.empty() || ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return v;
}

// The number just after `key` (skipping the words of a longer label) or just before it.
struct LineFigures {
  std::optional<std::uint64_t> nodes, nps, time_ms;
};

LineFigures figures_of(const std::vector<std::string>& w) {
  LineFigures f;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const auto next = [&](std::size_t k) {
      return i + k < w.size() ? count(w[i + k]) : std::nullopt;
    };
    const auto prev = [&] { return i > 0 ? count(w[i - 1]) : std::nullopt; };
    if (w[i] == "nodes") {
      if (i + 1 < w.size() && w[i + 1] == "second") {
        if (auto v = next(2)) f.nps = v;  // "Nodes/second : N"
      } else if (i + 1 < w.size() && w[i + 1] == "searched") {
        if (auto v = next(2)) f.nodes = v;  // "Nodes searched : N"
      } else if (auto v = prev()) {
        f.nodes = v;  // "N nodes"
      } else if (auto v = next(1)) {
        f.nodes = v;  // "nodes N"
      }
    } else if (w[i] == "nps") {
      if (auto v = prev())
        f.nps = v;  // "N nps"
      else if (auto v = next(1))
        f.nps = v;  // "nps N"
    } else if (w[i] == "total" && i + 2 < w.size() && w[i + 1] == "time" && w[i + 2] == "ms") {
      if (auto v = next(3)) f.time_ms = v;  // "Total time (ms) : N"
    }
  }
  return f;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

}  // namespace

std::optional<BenchFigures> parse_bench_output(std::string_view output) {
  std::optional<std::uint64_t> nodes, nps, time_ms;
  const auto lines = lines_of(output);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    const LineFigures f = figures_of(words_of(*it));
    if (!nodes && f.nodes) nodes = f.nodes;
    if (!nps && f.nps) nps = f.nps;
    if (!time_ms && f.time_ms) time_ms = f.time_ms;
  }
  if (!nodes) return std::nullopt;
  BenchFigures b;
  b.nodes = *nodes;
  if (nps) b.nps = static_cast<double>(*nps);
  if (time_ms) b.time_ms = static_cast<double>(*time_ms);
  return b;
}

std::optional<std::uint64_t> bench_in_commit_message(std::string_view message) {
  std::optional<std::uint64_t> found;
  for (std::string_view line : lines_of(message)) {
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    line.remove_prefix(i);
    if (line.size() < 6) continue;
    std::string head(line.substr(0, 5));
    for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (head != "bench") continue;
    line.remove_prefix(5);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (line.empty() || (line.front() != ':' && line.front() != '=')) continue;
    line.remove_prefix(1);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    std::size_t digits = 0;
    while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
    std::string rest(line.substr(digits));
    if (digits == 0 || rest.find_first_not_of(" \t\r") != std::string::npos) continue;
    if (auto v = count(std::string(line.substr(0, digits)))) found = v;
  }
  return found;
}

}  // namespace knightly::runner

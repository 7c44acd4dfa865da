#include "runner/output/table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "runner/output/printable.h"
#include "runner/report/json.h"

namespace knightly::runner {

using report::json_escape;

std::expected<OutputFormat, std::string> parse_output_format(std::string_view text) {
  if (text == "table") return OutputFormat::Table;
  if (text == "csv") return OutputFormat::Csv;
  if (text == "json") return OutputFormat::Json;
  return std::unexpected("unknown format '" + std::string(text) + "' (table, csv or json)");
}

Cell cell(std::string text) {
  return Cell{std::move(text), false, false};
}
Cell cell(long long value) {
  return Cell{std::to_string(value), true, false};
}
Cell cell(double value, int decimals) {
  if (!std::isfinite(value)) return null_cell();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  // A value that rounds to zero prints without a sign (an even score's Elo is -0.0), as every
  // other output prints it.
  std::string text = buf;
  if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  return Cell{std::move(text), true, false};
}
Cell null_cell() {
  return Cell{"", false, true};
}
Cell marked_cell(std::string text) {
  return Cell{std::move(text), true, true};
}

EloCells elo_cells(const stats::EloEstimate& e, int decimals) {
  if (!e.unbounded) return {cell(e.elo, decimals), cell(e.elo95, decimals), ""};
  const bool top = e.all_won();
  char bound[64];
  std::snprintf(bound, sizeof bound, "%s%.*f", top ? ">=" : "<=", decimals, e.bound95);
  return {marked_cell(top ? "+inf" : "-inf"), marked_cell(bound),
          std::string(top ? "100%" : "0%") + " score: no finite Elo; " + bound + " at 95%"};
}

std::string csv_escape(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string Table::render(OutputFormat format, std::string_view name) const {
  std::string out;
  switch (format) {
    case OutputFormat::Csv: {
      for (std::size_t i = 0; i < columns_.size(); ++i)
        out += (i ? "," : "") + csv_escape(columns_[i]);
      out += '\n';
      for (const auto& row : rows_) {
        for (std::size_t i = 0; i < row.size(); ++i)
          out += (i ? "," : "") + csv_escape(row[i].text);
        out += '\n';
      }
      return out;
    }
    case OutputFormat::Json: {
      out += "{\"" + json_escape(name) + "\": [";
      for (std::size_t r = 0; r < rows_.size(); ++r) {
        out += r ? ",\n  {" : "\n  {";
        for (std::size_t i = 0; i < columns_.size() && i < rows_[r].size(); ++i) {
          const Cell& c = rows_[r][i];
          out += (i ? ", \"" : "\"") + json_escape(columns_[i]) + "\": ";
          if (c.null)
            out += "null";
          else if (c.numeric)
            out += c.text;
          else
            out += "\"" + json_escape(c.text) + "\"";
        }
        out += "}";
      }
      out += rows_.empty() ? "]}\n" : "\n]}\n";
      return out;
    }
    case OutputFormat::Table: {
      // One line per row whatever the database holds: a control character in a name (from an
      // older database, an engine's id) is shown escaped, never written raw.
      std::vector<std::vector<std::string>> texts;
      for (const auto& row : rows_) {
        texts.emplace_back();
        for (const Cell& c : row) texts.back().push_back(printable(c.text));
      }
      std::vector<std::size_t> width(columns_.size());
      for (std::size_t i = 0; i < columns_.size(); ++i) width[i] = columns_[i].size();
      for (const auto& row : texts)
        for (std::size_t i = 0; i < row.size() && i < width.size(); ++i)
          width[i] = std::max(width[i], row[i].size());
      auto pad = [&](const std::string& text, std::size_t w, bool right) {
        std::string fill(w > text.size() ? w - text.size() : 0, ' ');
        return right ? fill + text : text + fill;
      };
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        bool right = !rows_.empty() && i < rows_[0].size() && rows_[0][i].numeric;
        out += (i ? "  " : "") + pad(columns_[i], width[i], right);
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += '\n';
      for (std::size_t r = 0; r < rows_.size(); ++r) {
        const auto& row = rows_[r];
        std::string line;
        for (std::size_t i = 0; i < row.size() && i < width.size(); ++i)
          line += (i ? "  " : "") + pad(texts[r][i], width[i], row[i].numeric);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + '\n';
      }
      return out;
    }
  }
  return out;
}

}  // namespace knightly::runner

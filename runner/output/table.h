#pragma once
// Query results as a table rendered for a terminal (aligned), CSV, or one JSON document
// (strings escaped by report::json_escape, so the JSON is safe inside an HTML page too).
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "runner/stats/elo.h"

namespace knightly::runner {

enum class OutputFormat { Table, Csv, Json };
std::expected<OutputFormat, std::string> parse_output_format(std::string_view text);

struct Cell {
  std::string text;
  bool numeric = false;  // right-aligned in tables, unquoted in JSON
  bool null = false;     // JSON null, empty in CSV/table
};
Cell cell(std::string text);
Cell cell(long long value);
Cell cell(double value, int decimals);  // a NaN or infinity is a null cell
Cell null_cell();
// Text in a numeric column (right-aligned, as is in tables and CSV) that JSON gives as null.
Cell marked_cell(std::string text);

// An Elo estimate as two cells, the value and its 95% half-width. An unbounded estimate (a 100%
// or 0% score) is "+inf"/"-inf" and ">= B"/"<= B", JSON null, with `note` saying why.
struct EloCells {
  Cell elo;
  Cell error;
  std::string note;  // "" for a finite estimate
};
EloCells elo_cells(const stats::EloEstimate& e, int decimals);

class Table {
 public:
  explicit Table(std::vector<std::string> columns) : columns_(std::move(columns)) {}
  void add_row(std::vector<Cell> row) { rows_.push_back(std::move(row)); }
  std::size_t size() const { return rows_.size(); }
  // JSON: {"<name>": [{"col": value, ...}, ...]} so a script reads one document.
  std::string render(OutputFormat format, std::string_view name) const;

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<Cell>> rows_;
};

std::string csv_escape(std::string_view s);

}  // namespace knightly::runner

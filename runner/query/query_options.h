#pragma once
// The options of `knightly query` (docs/cli.md): one table of flags that the parser applies and
// that `knightly help query`, `query KIND --help` and `knightly serve`'s /api/query parameters
// are written from.
#include <expected>
#include <iostream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "db/store/store.h"
#include "runner/output/args.h"
#include "runner/output/table.h"

namespace knightly::runner {

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

// Every kind `knightly query` knows, in the order the help lists them.
std::vector<std::string> query_kind_names();
bool is_query_kind(std::string_view kind);

// `knightly query KIND --help`: the usage of one kind, its options and the exit codes.
std::string query_kind_help(std::string_view kind);

// The words after `knightly query KIND`; an error message for a bad one.
std::expected<QueryOptions, std::string> parse_query_options(Args& args, std::string_view kind);

// The options part of `knightly help query`: every option and filter with its values, from the
// one table of options the parser reads, every kind and the exit codes.
std::string query_options();

// The options of that table as `knightly serve`'s /api/query takes them (`?engine=x` is
// `--engine x`, `?merge-by-name` is `--merge-by-name`): the flag without its dashes and whether
// it takes a value. --db and --format are the server's, not a request's.
struct QueryParam {
  std::string name;
  bool takes_value = true;
};
std::vector<QueryParam> query_params();

// The termination names games.termination stores (db/records), for help and suggestions.
std::vector<std::string> termination_names();

}  // namespace knightly::runner

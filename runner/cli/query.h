#pragma once
// `knightly query` as a function over an open store, so `knightly report` and `knightly serve`
// embed and serve exactly what the command prints (one JSON builder: runner/cli/table.h).
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "db/store/store.h"
#include "runner/cli/args.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {

// Runs `knightly query WHAT [options]` (the options as on the command line, without --db)
// against `store`: what the command prints goes to `out`, its messages to `err`; returns its
// exit code.
int run_query(const db::Store& store, const std::string& what, Args& args, std::ostream& out,
              std::ostream& err);

// The options part of `knightly help query`: every option and filter with its values, from the
// one table of options the parser reads (cmd_query.cpp), every kind and the exit codes.
std::string query_options();

// The options of that table as `knightly serve`'s /api/query takes them (`?engine=x` is
// `--engine x`, `?merge-by-name` is `--merge-by-name`): the flag without its dashes and whether
// it takes a value. --db and --format are the server's, not a request's.
struct QueryParam {
  std::string name;
  bool takes_value = true;
};
std::vector<QueryParam> query_params();

// What a stored tournament says about a two-engine match: its SPRT bounds as the store holds
// them (Store::sprt_settings: `knightly sprt`, `play -sprt` and a TOML [sprt] store them when
// they create the tournament; nullopt for none) and its first engine, whose side the figures
// take ("" when no TOML config says).
struct StoredMatch {
  std::optional<stats::SprtConfig> sprt;
  std::string first;
};
StoredMatch stored_match(const db::Store& store, const db::Tournament& tournament);

}  // namespace knightly::runner

#pragma once
// `knightly query` as a function over an open store, so `knightly report` and `knightly serve`
// embed and serve exactly what the command prints (one JSON builder: runner/output/table.h).
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "db/store/store.h"
#include "runner/output/args.h"
#include "runner/query/query_options.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {

// Runs `knightly query WHAT [options]` (the options as on the command line, without --db)
// against `store`: what the command prints goes to `out`, its messages to `err`; returns its
// exit code.
int run_query(const db::Store& store, const std::string& what, Args& args, std::ostream& out,
              std::ostream& err);

// The same with the options parsed (query_options.h): prints to the options' streams.
int run_query(const db::Store& store, const std::string& what, const QueryOptions& options);

// What a stored tournament says about a two-engine match: its SPRT bounds as the store holds
// them (Store::sprt_settings: `knightly sprt`, `play -sprt` and a TOML [sprt] store them when
// they create the tournament; nullopt for none) and its first engine, whose side the figures
// take, and its second ("" when no TOML config says; the second only when it names two or more).
struct StoredMatch {
  std::optional<stats::SprtConfig> sprt;
  std::string first;
  std::string second;
};
StoredMatch stored_match(const db::Store& store, const db::Tournament& tournament);

}  // namespace knightly::runner

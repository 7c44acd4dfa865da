#pragma once
// The kinds of `knightly query` (runner/query): each reads the store and prints its table to
// the options' stream. Internal to the module; run_query (query.h) picks one.
#include <string>

#include "db/store/store.h"
#include "runner/output/table.h"
#include "runner/query/query_options.h"

namespace knightly::runner {

Cell text_or_null(const std::string& s);
// Prints `t` as the options say; ExitOk.
int print(const Table& t, const QueryOptions& q, const char* name);

int query_tournaments(const db::Store& store, const QueryOptions& q);
int query_standings(const db::Store& store, const QueryOptions& q);
int query_games(const db::Store& store, QueryOptions q);
int query_h2h(const db::Store& store, const QueryOptions& q);
int query_engines(const db::Store& store, const QueryOptions& q);
int query_ratings(const db::Store& store, QueryOptions q);
int query_terminations(const db::Store& store, const QueryOptions& q);
int query_health(const db::Store& store, const QueryOptions& q);

}  // namespace knightly::runner

// knightly query KIND [options]: the words parsed (runner/query/query_options.h), the database
// opened read-only, and the query run over it (runner/query).
#include <iostream>

#include "db/store/store.h"
#include "runner/cli/subcommand.h"
#include "runner/config/closest_name.h"
#include "runner/output/printable.h"
#include "runner/query/query.h"
#include "runner/run/run_options.h"

namespace knightly::runner {

int cmd_query(Args& args) {
  if (args.empty()) {
    std::cerr << "knightly: query: which? tournaments, standings, games, h2h, engines, ratings, "
                 "terminations, health, sprt, workers, tests, tune (knightly help query says "
                 "more)\n";
    return ExitError;
  }
  std::string what = args.take();
  if (what == "--help" || what == "-h" || what == "help") {
    std::cout << usage_of(*find_subcommand("query"));
    return ExitOk;
  }
  if (!is_query_kind(what)) {
    std::cerr << "knightly: query: unknown kind '" << printable(what) << "'"
              << suggestion_text(what, query_kind_names()) << "\n";
    return ExitError;
  }
  auto q = parse_query_options(args, what);
  if (!q) {
    std::cerr << "knightly: query " << what << ": " << q.error() << "\n";
    return ExitError;
  }
  if (q->help) {
    std::cout << query_kind_help(what);
    return ExitOk;
  }
  db::StoreOptions so;
  so.mode = db::OpenMode::ReadOnly;
  auto store = db::Store::open(q->db, so);
  if (!store) {
    std::cerr << "knightly: " << store.error().message << "\n";
    return ExitError;
  }
  return run_query(*store, what, *q);
}

}  // namespace knightly::runner

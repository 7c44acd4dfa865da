// knightly stop NAME: every worker of the tournament starts no new game, finishes (or
// abandons, as it was started with --on-stop) the one it plays, and exits 3. The tournament
// is left resumable: the same run command plays the rest.
#include <iostream>

#include "db/store/store.h"
#include "runner/cli/subcommand.h"
#include "runner/cli/work_control.h"
#include "runner/output/printable.h"
#include "runner/run/decision.h"
#include "runner/run/run_options.h"

namespace knightly::runner {

int cmd_stop(Args& args) {
  std::string db = "knightly.db", name;
  bool all = false;
  while (!args.empty()) {
    std::string a = args.take();
    if (a == "--all") {
      all = true;
    } else if (a == "--db") {
      auto v = args.value(a);
      if (!v) {
        std::cerr << "knightly: stop: " << v.error() << "\n";
        return ExitError;
      }
      db = *v;
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "knightly: stop: unknown option '" << printable(a) << "'\n";
      return ExitError;
    } else if (name.empty()) {
      name = a;
    } else {
      std::cerr << "knightly: stop: one tournament at a time ('" << printable(name) << "', '"
                << printable(a) << "')\n";
      return ExitError;
    }
  }
  if (name.empty() == !all) {
    std::cerr << "knightly: stop: which tournament? (knightly stop NAME [--db PATH], or --all "
                 "for every `knightly work`)\n";
    return ExitError;
  }
  db::StoreOptions so;
  so.mode = db::OpenMode::ReadWrite;
  // A stop is only worth making in a database that exists: never create one for it.
  auto probe = db::Store::open(db, db::StoreOptions{db::OpenMode::ReadOnly});
  if (!probe) {
    std::cerr << "knightly: " << probe.error().message << "\n";
    return ExitError;
  }
  auto store = db::Store::open(db, so);
  if (!store) {
    std::cerr << "knightly: " << store.error().message << "\n";
    return ExitError;
  }
  if (all) return stop_all_workers(*store);
  const std::string shown = "'" + printable(name) + "'";
  try {
    auto t = store->catalog().find_tournament(name);
    if (!t) {
      std::cerr << "knightly: stop: no tournament " << shown << " in " << store->path() << "\n";
      return ExitError;
    }
    if (t->status == db::TournamentStatus::Finished) {
      auto c = store->work().control(t->id);
      std::cout << "Tournament " << shown << " is already finished"
                << (c.decision.empty() ? "" : " (" + printable(c.decision) + ")") << ".\n";
      return ExitOk;
    }
    if (auto c = store->work().control(t->id); c.stop_requested) {
      std::cout << "Tournament " << shown << " is already stopped (" << printable(c.decision)
                << "); the same run command resumes it.\n";
      return ExitOk;
    }
    db::GameFilter filter;
    filter.tournament_ids = {t->id};
    const std::string decision =
        stop_decision(store->queries().count_games(filter), store->work().scheduled_games(t->id));
    if (!store->work().request_stop(name, decision)) {
      std::cerr << "knightly: stop: no tournament " << shown << " in " << store->path() << "\n";
      return ExitError;
    }
    std::cout << "Stop requested for " << shown << " (" << decision
              << "): its workers start no new game, finish the ones in progress and exit (exit "
                 "code 3); the same run command resumes it.\n";
  } catch (const db::StoreException& e) {
    std::cerr << "knightly: " << e.what() << "\n";
    return ExitError;
  }
  return ExitOk;
}

}  // namespace knightly::runner

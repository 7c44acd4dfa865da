// knightly report: one self-contained HTML file (no network needed to open it) with the
// standings, ratings, head-to-head, terminations, the two-engine match figures, move
// statistics per engine and the newest games with a board to replay them.
#include <iostream>

#include "db/store/store.h"
#include "runner/cli/subcommand.h"
#include "runner/query/page_data.h"
#include "runner/report/page.h"
#include "runner/run/replace_file.h"
#include "runner/run/run_options.h"

namespace knightly::runner {

namespace {

struct ReportArgs {
  std::string db = "knightly.db";
  std::string output;
  ReportOptions report;
};

std::expected<ReportArgs, std::string> parse_report_args(Args& args) {
  ReportArgs r;
  while (!args.empty()) {
    const std::string a = args.take();
    auto v = args.value(a);
    if (!v) return std::unexpected(v.error());
    if (a == "--db") {
      r.db = *v;
    } else if (a == "-o" || a == "--output") {
      r.output = *v;
    } else if (a == "--tournament") {
      r.report.filter.tournaments.push_back(*v);
    } else if (a == "--title") {
      r.report.title = *v;
    } else if (a == "--games") {
      auto n = parse_int(a, *v, 0, 100000);
      if (!n) return std::unexpected(n.error());
      r.report.games = static_cast<int>(*n);
    } else if (a == "--move-games") {
      auto n = parse_int(a, *v, 0, 1LL << 40);
      if (!n) return std::unexpected(n.error());
      r.report.move_stats_games = *n;
    } else {
      return std::unexpected("unknown option '" + a + "'");
    }
  }
  if (r.output.empty()) return std::unexpected("-o FILE: where to write the report is missing");
  return r;
}

}  // namespace

int cmd_report(Args& args) {
  auto r = parse_report_args(args);
  if (!r) {
    std::cerr << "knightly: report: " << r.error() << "\n";
    return ExitError;
  }
  db::StoreOptions so;
  so.mode = db::OpenMode::ReadOnly;
  auto store = db::Store::open(r->db, so);
  if (!store) {
    std::cerr << "knightly: report: " << store.error().message << "\n";
    return ExitError;
  }
  for (const auto& name : r->report.filter.tournaments)
    if (!store->catalog().find_tournament(name)) {
      std::cerr << "knightly: report: no tournament '" << name << "' in " << store->path() << "\n";
      return ExitError;
    }
  std::string page;
  try {
    const std::string data = report_document(*store, r->report, db::utc_now_iso());
    page = report::report_page({r->report.title, data, false});
  } catch (const db::StoreException& e) {
    std::cerr << "knightly: report: " << e.what() << "\n";
    return ExitError;
  }
  if (auto w = replace_file(r->output, page); !w) {
    std::cerr << "knightly: report: " << w.error() << "\n";
    return ExitError;
  }
  std::cout << "knightly: report: wrote " << r->output << " (" << (page.size() + 1023) / 1024
            << " KB)\n";
  return ExitOk;
}

}  // namespace knightly::runner

#pragma once
// The report page: one self-contained HTML document (style, Chart.js and the page's script
// inline, no external reference) around a JSON data document. `knightly report` writes it with
// every data set embedded; `knightly serve` sends the same page in live mode, where the script
// also polls the JSON API and redraws what changed.
#include <string>

namespace knightly::runner::report {

struct PageOptions {
  std::string title;      // shown as the page's title and heading (escaped here)
  std::string data_json;  // the data document (runner/query/page_data.h); JSON text
  bool live = false;      // served: the script polls /api/summary and fetches pages
};

// The page. The Content-Security-Policy forbids every network access in a report file and
// allows only the serving origin in live mode. Throws std::logic_error when data_json
// contains a '<' (JSON from report::JsonWriter never does: strings escape it), since the
// document sits inside a <script> element.
std::string report_page(const PageOptions& options);

// The Content-Security-Policy of the page in that mode (also sent as a header by serve).
std::string page_csp(bool live);

// `knightly serve`'s list of the test queue (docs/regression-testing.md, /tests): the same
// style and Chart.js, its own template and script, always live (it polls api/tests). The same
// rule for data_json as report_page.
std::string tests_page(const PageOptions& options);

}  // namespace knightly::runner::report

#pragma once
// The page's parts, compiled in at build time (runner/report/CMakeLists.txt): its HTML
// template, style sheet and script (runner/report/page/), and Chart.js as Debian's
// libjs-chart.js installs it (/usr/share/javascript/chart.js/chart.min.js).
#include <string_view>

namespace knightly::runner::report::assets {

std::string_view page_html();
std::string_view page_css();
std::string_view page_js();
std::string_view chart_js();
// The test queue's list (tests_page): its template, style (after page_css) and script.
std::string_view tests_html();
std::string_view tests_css();
std::string_view tests_js();

}  // namespace knightly::runner::report::assets

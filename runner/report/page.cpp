#include "runner/report/page.h"

#include <stdexcept>
#include <string_view>

#include "runner/report/assets.h"
#include "runner/report/html.h"

namespace knightly::runner::report {

std::string page_csp(bool live) {
  return std::string(
             "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
             "img-src data:; base-uri 'none'; form-action 'none'; connect-src ") +
         (live ? "'self'" : "'none'");
}

namespace {

// Fills the template's @@SLOT@@ markers with part(SLOT), in one pass: inserted parts are never
// scanned for slots. The data document may not contain '<' (it sits inside a <script>).
std::string fill(std::string_view tmpl, const PageOptions& options, std::string_view style,
                 std::string_view script) {
  if (options.data_json.find('<') != std::string::npos)
    throw std::logic_error("report page: the data document contains '<'");
  const std::string title = html_escape(options.title);
  // Our own constant, with no '"' or '&' in it: it goes into the attribute as it is.
  const std::string csp = page_csp(options.live);
  auto part = [&](std::string_view name) -> std::string_view {
    if (name == "TITLE") return title;
    if (name == "CSP") return csp;
    if (name == "MODE") return options.live ? "live" : "report";
    if (name == "STYLE") return style;
    if (name == "DATA") return options.data_json;
    if (name == "CHARTJS") return assets::chart_js();
    if (name == "SCRIPT") return script;
    throw std::logic_error("report page: unknown template slot @@" + std::string(name) + "@@");
  };
  std::string out;
  out.reserve(tmpl.size() + options.data_json.size() + assets::chart_js().size() + script.size() +
              style.size() + 256);
  std::size_t at = 0;
  while (true) {
    const std::size_t open = tmpl.find("@@", at);
    if (open == std::string_view::npos) break;
    const std::size_t close = tmpl.find("@@", open + 2);
    if (close == std::string_view::npos) throw std::logic_error("report page: unclosed slot");
    out.append(tmpl.substr(at, open - at));
    out.append(part(tmpl.substr(open + 2, close - open - 2)));
    at = close + 2;
  }
  out.append(tmpl.substr(at));
  return out;
}

}  // namespace

std::string report_page(const PageOptions& options) {
  return fill(assets::page_html(), options, assets::page_css(), assets::page_js());
}

std::string tests_page(const PageOptions& options) {
  PageOptions live = options;
  live.live = true;
  const std::string style = std::string(assets::page_css()) + std::string(assets::tests_css());
  return fill(assets::tests_html(), live, style, assets::tests_js());
}

}  // namespace knightly::runner::report

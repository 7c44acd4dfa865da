#include "runner/cli/serve_tests.h"

#include "db/store/utc_time.h"
#include "runner/cli/test_list.h"
#include "runner/report/json.h"
#include "runner/report/page.h"

namespace knightly::runner {
namespace {

using serve::Response;

Response error_response(int status, const std::string& message) {
  return Response{status,
                  "application/json; charset=utf-8",
                  "{\"error\":" + report::json_string(message) + "}\n",
                  {}};
}

Response redirect(const std::string& to) {
  Response r{301, "text/plain; charset=utf-8", "moved to " + to + "\n", {}};
  r.headers.emplace_back("Location", to);
  return r;
}

}  // namespace

TestsSite::TestsSite(const db::Store& store, std::string title)
    : store_(store), title_(std::move(title)) {}

TestsSite::~TestsSite() = default;

Response TestsSite::tests_json() {
  std::lock_guard lock(mutex_);
  const std::string generation = store_.data_generation();
  if (generation != cached_generation_ || cached_json_.empty()) {
    cached_json_ = tests_document(store_, title_, db::utc_now_iso());
    cached_generation_ = generation;
  }
  return Response{200, "application/json; charset=utf-8", cached_json_, {}};
}

ServeApi* TestsSite::test_api(std::int64_t id, Response* missing) {
  std::lock_guard lock(mutex_);
  for (auto it = apis_.begin(); it != apis_.end(); ++it)
    if (it->first == id) {
      apis_.splice(apis_.begin(), apis_, it);
      return apis_.front().second.get();
    }
  const auto test = store_.test(id);
  if (!test) {
    *missing = error_response(404, "no test " + std::to_string(id));
    return nullptr;
  }
  ServeApiOptions o;
  o.filter.tournaments = {test->tournament.name};
  o.title = "Test " + test->tournament.name;
  o.poll = std::chrono::milliseconds(1000);
  apis_.emplace_front(id, std::make_unique<ServeApi>(store_, o));
  if (apis_.size() > kApis) apis_.pop_back();
  return apis_.front().second.get();
}

std::optional<Response> TestsSite::handle(const serve::Request& request) {
  const std::string& target = request.target;
  const std::string path = target.substr(0, target.find('?'));
  try {
    if (path == "/api/tests") {
      if (path != target) return error_response(400, "/api/tests takes no parameters");
      return tests_json();
    }
    if (path == "/tests/") return redirect("/tests");
    if (path == "/tests") {
      if (path != target) return error_response(400, "/tests takes no parameters");
      Response json = tests_json();
      report::PageOptions page{title_ + ": tests", json.body, true};
      Response r{200, "text/html; charset=utf-8", report::tests_page(page), {}};
      r.headers.emplace_back("Content-Security-Policy", report::page_csp(true));
      return r;
    }
    if (!path.starts_with("/tests/")) return std::nullopt;
    // /tests/ID/REST: the test's own page and API, as ServeApi answers REST.
    std::size_t end = 7;
    while (end < target.size() && target[end] >= '0' && target[end] <= '9') ++end;
    if (end == 7 || end - 7 > 18) return error_response(404, "no page " + path);
    const std::int64_t id = std::stoll(target.substr(7, end - 7));
    if (end == target.size() || target[end] == '?') return redirect(target.substr(0, end) + "/");
    if (target[end] != '/') return error_response(404, "no page " + path);
    Response missing;
    ServeApi* api = test_api(id, &missing);
    if (!api) return missing;
    return api->handle(serve::Request{request.method, target.substr(end)});
  } catch (const db::StoreException& e) {
    return error_response(503, e.what());
  }
}

}  // namespace knightly::runner

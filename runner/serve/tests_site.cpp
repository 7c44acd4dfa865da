#include "runner/serve/tests_site.h"

#include "db/records/utc_time.h"
#include "runner/query/test_list.h"
#include "runner/report/json.h"
#include "runner/report/page.h"

namespace knightly::runner {
namespace {

using serve::Response;

TestsSite::Answer redirect(const std::string& to) {
  Response r{301, "text/plain; charset=utf-8", "moved to " + to + "\n", {}};
  r.headers.emplace_back("Location", to);
  return std::make_shared<const Response>(std::move(r));
}

}  // namespace

TestsSite::TestsSite(const db::Store& store, std::string title, std::size_t cache_bytes)
    : store_(store), title_(std::move(title)), cache_bytes_(cache_bytes) {}

TestsSite::~TestsSite() = default;

TestsSite::Answer TestsSite::tests_answer(bool page) {
  std::lock_guard lock(mutex_);
  const std::string generation = store_.queries().data_generation();
  if (generation != cached_generation_ || !cached_json_) {
    cached_json_ =
        std::make_shared<const Response>(Response{200,
                                                  "application/json; charset=utf-8",
                                                  tests_document(store_, title_, db::utc_now_iso()),
                                                  {}});
    cached_page_ = nullptr;
    cached_generation_ = generation;
  }
  if (!page) return cached_json_;
  if (!cached_page_) {
    report::PageOptions options{title_ + ": tests", cached_json_->body, true};
    Response r{200, "text/html; charset=utf-8", report::tests_page(options), {}};
    r.headers.emplace_back("Content-Security-Policy", report::page_csp(true));
    cached_page_ = std::make_shared<const Response>(std::move(r));
  }
  return cached_page_;
}

std::shared_ptr<ServeApi> TestsSite::test_api(std::int64_t id, Answer* missing) {
  std::lock_guard lock(mutex_);
  for (auto it = apis_.begin(); it != apis_.end(); ++it)
    if (it->first == id) {
      apis_.splice(apis_.begin(), apis_, it);
      return apis_.front().second;
    }
  const auto test = store_.test_queue().test(id);
  if (!test) {
    *missing = error_answer(404, "no test " + std::to_string(id));
    return nullptr;
  }
  ServeApiOptions o;
  o.filter.tournaments = {test->tournament.name};
  o.title = "Test " + test->tournament.name;
  o.poll = std::chrono::milliseconds(1000);
  o.cache_bytes = cache_bytes_ / kApis;  // so that all of them together keep cache_bytes_
  apis_.emplace_front(id, std::make_shared<ServeApi>(store_, o));
  if (apis_.size() > kApis) apis_.pop_back();
  return apis_.front().second;
}

TestsSite::Answer TestsSite::handle(const serve::Request& request) {
  const std::string& target = request.target;
  const std::string path = target.substr(0, target.find('?'));
  try {
    if (path == "/api/tests") {
      if (path != target) return error_answer(400, "/api/tests takes no parameters");
      return tests_answer(false);
    }
    if (path == "/tests/") return redirect("/tests");
    if (path == "/tests") {
      if (path != target) return error_answer(400, "/tests takes no parameters");
      return tests_answer(true);
    }
    if (!path.starts_with("/tests/")) return nullptr;
    // /tests/ID/REST: the test's own page and API, as ServeApi answers REST.
    std::size_t end = 7;
    while (end < target.size() && target[end] >= '0' && target[end] <= '9') ++end;
    if (end == 7 || end - 7 > 18) return error_answer(404, "no page " + path);
    const std::int64_t id = std::stoll(target.substr(7, end - 7));
    if (end == target.size() || target[end] == '?') return redirect(target.substr(0, end) + "/");
    if (target[end] != '/') return error_answer(404, "no page " + path);
    Answer missing;
    const auto api = test_api(id, &missing);
    if (!api) return missing;
    return api->handle(serve::Request{request.method, target.substr(end)});
  } catch (const db::StoreException& e) {
    return store_error_answer(e);
  }
}

}  // namespace knightly::runner

#pragma once
// `knightly serve`'s test queue (docs/regression-testing.md, docs/api.md): /tests lists every
// test as OpenBench's index does (state, LLR between its bounds, Elo, games, pentanomial, the
// two commits, submitter, when) with each engine's history chart; /api/tests is its data
// (tests_document); /tests/ID/ is that test's own live report, the page and API of ServeApi
// scoped to its tournament (the page's relative URLs land under /tests/ID/). Everything else
// is left to the main ServeApi. Errors are JSON as ServeApi's are (a failing store: 503, no
// SQL), and the tests' APIs together keep at most `cache_bytes` of answers.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>

#include "db/store/store.h"
#include "runner/serve/api.h"
#include "runner/serve/http_server.h"

namespace knightly::runner {

class TestsSite {
 public:
  TestsSite(const db::Store& store, std::string title, std::size_t cache_bytes);
  ~TestsSite();
  TestsSite(const TestsSite&) = delete;
  TestsSite& operator=(const TestsSite&) = delete;

  using Answer = std::shared_ptr<const serve::Response>;
  // The answer when the request is the queue's (/tests..., /api/tests), else nullptr.
  // Thread-safe.
  Answer handle(const serve::Request& request);

 private:
  // Shared: a request keeps its test's API alive while a newer test's pushes it out.
  std::shared_ptr<ServeApi> test_api(std::int64_t id, Answer* missing);
  // /api/tests as JSON, and /tests: the page around it (by the store's generation).
  Answer tests_answer(bool page);

  const db::Store& store_;
  std::string title_;
  std::size_t cache_bytes_;  // for all the tests' APIs together
  std::mutex mutex_;
  // The tests' own APIs, the most recently used first; at most kApis (each polls the store).
  static constexpr std::size_t kApis = 8;
  std::list<std::pair<std::int64_t, std::shared_ptr<ServeApi>>> apis_;
  // /api/tests and /tests by the store's generation.
  std::string cached_generation_;
  Answer cached_json_, cached_page_;
};

}  // namespace knightly::runner

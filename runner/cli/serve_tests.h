#pragma once
// `knightly serve`'s test queue (docs/regression-testing.md, docs/api.md): /tests lists every
// test as OpenBench's index does (state, LLR between its bounds, Elo, games, pentanomial, the
// two commits, submitter, when) with each engine's history chart; /api/tests is its data
// (tests_document); /tests/ID/ is that test's own live report, the page and API of ServeApi
// scoped to its tournament (the page's relative URLs land under /tests/ID/). Everything else
// is left to the main ServeApi.
#include <chrono>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "db/store/store.h"
#include "runner/cli/serve_api.h"
#include "runner/serve/http_server.h"

namespace knightly::runner {

class TestsSite {
 public:
  TestsSite(const db::Store& store, std::string title);
  ~TestsSite();
  TestsSite(const TestsSite&) = delete;
  TestsSite& operator=(const TestsSite&) = delete;

  // The answer when the request is the queue's (/tests..., /api/tests), else nullopt.
  // Thread-safe.
  std::optional<serve::Response> handle(const serve::Request& request);

 private:
  ServeApi* test_api(std::int64_t id, serve::Response* missing);
  serve::Response tests_json();

  const db::Store& store_;
  std::string title_;
  std::mutex mutex_;
  // The tests' own APIs, the most recently used first; at most kApis (each polls the store).
  static constexpr std::size_t kApis = 8;
  std::list<std::pair<std::int64_t, std::unique_ptr<ServeApi>>> apis_;
  // /api/tests and /tests by the store's generation.
  std::string cached_generation_;
  std::string cached_json_;
};

}  // namespace knightly::runner

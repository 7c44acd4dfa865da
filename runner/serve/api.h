#pragma once
// What `knightly serve` answers (docs/api.md): the live page and the JSON API over a
// read-only store, every answer cached by the store's generation (Store::data_generation), so
// any number of clients cost one computation per change. A stale answer is served while a
// background thread recomputes it; concurrent requests for an answer not yet computed wait for
// one computation.
//
// The cache is bounded in bytes (`cache_bytes`, knightly serve --cache-mb): the answers used
// least recently go first, and an answer larger than a quarter of the bound is computed for
// its request (and those waiting on it) and not kept. Answers are shared, never copied: the
// server writes each from the one Response the cache holds. An error is a JSON body naming no
// SQL: a store that fails (the database gone or unreachable) answers 503, and the detail goes
// to stderr once per change.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <thread>

#include "db/store/store.h"
#include "runner/serve/http_server.h"
#include "runner/serve/target.h"

namespace knightly::runner {

struct ServeApiOptions {
  db::GameFilter filter;  // what the page shows (by tournament)
  std::string title = "Knightly";
  int first_page = 50;                  // games in the page's first list page
  std::chrono::milliseconds poll{250};  // how often the store's generation is read
  std::size_t cache_bytes = 32 << 20;   // the answers kept, in bytes of their bodies
};

// The answers every `serve` handler gives for what fails: a JSON error body, and a store that
// fails as 503 naming no SQL (the detail goes to stderr).
std::shared_ptr<const serve::Response> error_answer(int status, const std::string& message);
std::shared_ptr<const serve::Response> store_error_answer(const db::StoreException& e);

class ServeApi {
 public:
  ServeApi(const db::Store& store, ServeApiOptions options);
  ~ServeApi();  // stops the refresher
  ServeApi(const ServeApi&) = delete;
  ServeApi& operator=(const ServeApi&) = delete;

  // Thread-safe; called by the server's threads for GET (and HEAD).
  std::shared_ptr<const serve::Response> handle(const serve::Request& request);

  // The bytes of the answers the cache holds now (for the tests and the benchmark).
  std::size_t cached_bytes();

 private:
  using Answer = std::shared_ptr<const serve::Response>;
  using Compute = std::function<serve::Response()>;
  using Clock = std::chrono::steady_clock;
  struct Entry {
    std::string generation;
    Clock::time_point computed_at;
    Clock::time_point last_used;
    Answer response;
    std::size_t bytes = 0;  // counted in cached_bytes_ while `response` is held
    std::shared_future<Answer> pending;
    Compute compute;
    std::list<std::string>::iterator lru;  // in lru_ while `response` is held
  };

  Answer route(const serve::Target& target);
  // The cached answer for `key`, computed by `compute` when there is none yet; answers older
  // than `max_age` (0 = no limit) or of an older generation are refreshed in the background.
  Answer cached(const std::string& key, Clock::duration max_age, Compute compute);
  // Under mutex_: keeps `response` as the entry's answer (counted, most recently used) when
  // it fits, else drops the entry; then evicts the least recently used until the bound holds.
  void keep(const std::string& key, Answer response, const std::string& generation);
  void forget(std::map<std::string, Entry>::iterator it);
  void refresher(std::stop_token stop);
  std::string now() const;

  const db::Store& store_;
  ServeApiOptions options_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::string generation_;
  std::map<std::string, Entry> cache_;
  std::list<std::string> lru_;  // keys with an answer, the most recently used first
  std::size_t cached_bytes_ = 0;
  std::deque<std::string> queue_;  // keys to recompute
  std::set<std::string> queued_;
  std::jthread thread_;
};

}  // namespace knightly::runner

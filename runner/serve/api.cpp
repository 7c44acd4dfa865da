#include "runner/serve/api.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>

#include "runner/query/page_data.h"
#include "runner/query/query.h"
#include "runner/report/json.h"
#include "runner/report/page.h"

namespace knightly::runner {

namespace {

using serve::Response;

Response json_response(int status, std::string body) {
  return Response{status, "application/json; charset=utf-8", std::move(body), {}};
}

Response error_response(int status, const std::string& message) {
  return json_response(status, "{\"error\":" + report::json_string(message) + "}\n");
}

std::shared_ptr<const Response> answer(Response r) {
  return std::make_shared<const Response>(std::move(r));
}

// What an entry costs besides its body and key: the map node, its closure, the bookkeeping.
constexpr std::size_t kEntryOverhead = 1024;

// The query flags the API takes as parameters, from the command's own table of options
// (`?tournament=x` is `--tournament x`; a switch is `?merge-by-name`, `=1` or `=true`, and
// `=0` or `=false` leaves it off); --db and --format are the server's.
const std::map<std::string, bool>& api_query_params() {
  static const std::map<std::string, bool> params = [] {
    std::map<std::string, bool> m;
    for (const auto& p : query_params()) m[p.name] = p.takes_value;
    return m;
  }();
  return params;
}

const std::set<std::string>& query_names() {
  static const std::set<std::string> names{"tournaments",  "standings", "games",
                                           "h2h",          "engines",   "ratings",
                                           "terminations", "health",    "sprt"};
  return names;
}

std::optional<std::int64_t> to_int(const std::string& s, std::int64_t min, std::int64_t max) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < min || v > max)
    return std::nullopt;
  return v;
}

// A cache key that does not depend on the order of the parameters.
std::string cache_key(const serve::Target& t) {
  auto params = t.params;
  std::sort(params.begin(), params.end());
  std::string key = t.path;
  for (const auto& [k, v] : params) key += "\n" + k + "=" + v;
  return key;
}

constexpr const char* kIndex =
    "{\"endpoints\":["
    "\"/\",\"/api\",\"/api/report\",\"/api/summary\","
    "\"/api/games?before=ID&limit=N&engine=E&result=R&termination=T\",\"/api/game/ID\","
    "\"/api/query/"
    "{tournaments,standings,games,h2h,engines,ratings,terminations,sprt}?FLAG=VALUE\"],"
    "\"docs\":\"docs/api.md\"}\n";

}  // namespace

ServeApi::ServeApi(const db::Store& store, ServeApiOptions options)
    : store_(store), options_(std::move(options)) {
  generation_ = store_.queries().data_generation();
  thread_ = std::jthread([this](std::stop_token stop) { refresher(stop); });
}

ServeApi::~ServeApi() {
  thread_.request_stop();
  wake_.notify_all();
}

std::string ServeApi::now() const {
  return db::utc_now_iso();
}

std::shared_ptr<const Response> error_answer(int status, const std::string& message) {
  return answer(error_response(status, message));
}

std::shared_ptr<const Response> store_error_answer(const db::StoreException& e) {
  // The database is gone, unreachable or locked: the client learns that much; the detail
  // (the statement's purpose, the file, libpq's text) is the operator's, on stderr.
  std::fprintf(stderr, "knightly serve: %s\n", e.what());
  return answer(error_response(503, "the database cannot be read now (" +
                                        std::string(db::error_kind_name(e.kind())) +
                                        "); the server's log says more"));
}

std::shared_ptr<const Response> ServeApi::handle(const serve::Request& request) {
  try {
    auto target = serve::parse_target(request.target);
    if (!target) return answer(error_response(400, target.error()));
    return route(*target);
  } catch (const db::StoreException& e) {
    return store_error_answer(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "knightly serve: %s\n", e.what());
    return answer(error_response(500, "internal error (the server's log says more)"));
  }
}

std::size_t ServeApi::cached_bytes() {
  std::lock_guard lock(mutex_);
  return cached_bytes_;
}

ServeApi::Answer ServeApi::route(const serve::Target& t) {
  auto only = [&](std::initializer_list<const char*> allowed) -> Answer {
    for (const auto& [k, v] : t.params) {
      bool ok = false;
      for (const char* a : allowed) ok = ok || k == a;
      if (!ok) return answer(error_response(400, "unknown parameter '" + k + "' for " + t.path));
    }
    return nullptr;
  };
  const std::string key = cache_key(t);
  const Clock::duration forever = Clock::duration::zero();

  if (t.path == "/" || t.path == "/index.html") {
    if (auto bad = only({})) return bad;
    return cached(key, forever, [this] {
      ReportOptions o;
      o.filter = options_.filter;
      o.title = options_.title;
      o.games = options_.first_page;
      o.details = false;
      report::PageOptions page{options_.title, report_document(store_, o, now()), true};
      Response r{200, "text/html; charset=utf-8", report::report_page(page), {}};
      r.headers.emplace_back("Content-Security-Policy", report::page_csp(true));
      return r;
    });
  }
  if (t.path == "/api" || t.path == "/api/") {
    if (auto bad = only({})) return bad;
    return answer(json_response(200, kIndex));
  }
  if (t.path == "/api/report") {
    if (auto bad = only({})) return bad;
    return cached(key, forever, [this] {
      ReportOptions o;
      o.filter = options_.filter;
      o.title = options_.title;
      o.games = options_.first_page;
      o.details = false;
      return json_response(200, report_document(store_, o, now()));
    });
  }
  if (t.path == "/api/summary") {
    if (auto bad = only({})) return bad;
    return cached(key, std::chrono::seconds(1), [this] {
      return json_response(200, summary_document(store_, options_.filter, now()));
    });
  }
  if (t.path == "/api/games") {
    if (auto bad = only({"before", "limit", "engine", "result", "termination"})) return bad;
    db::GameFilter f = options_.filter;
    std::int64_t before = 0;
    int limit = 50;
    if (const auto* v = t.param("before")) {
      auto n = to_int(*v, 0, INT64_MAX);
      if (!n) return answer(error_response(400, "before: '" + *v + "' is not a game id"));
      before = *n;
    }
    if (const auto* v = t.param("limit")) {
      auto n = to_int(*v, 1, 500);
      if (!n) return answer(error_response(400, "limit: '" + *v + "' is not a number 1..500"));
      limit = static_cast<int>(*n);
    }
    if (const auto* v = t.param("engine"); v && !v->empty()) f.engines.push_back(*v);
    if (const auto* v = t.param("result"); v && !v->empty()) {
      if (*v != "1-0" && *v != "0-1" && *v != "1/2-1/2")
        return answer(error_response(400, "result: '" + *v + "' (1-0, 0-1 or 1/2-1/2)"));
      f.result = *v;
    }
    if (const auto* v = t.param("termination"); v && !v->empty()) f.termination = *v;
    return cached(key, forever, [this, f, before, limit] {
      return json_response(200, games_page_json(store_, f, before, limit));
    });
  }
  if (t.path.starts_with("/api/game/")) {
    if (auto bad = only({})) return bad;
    const std::string id_text = t.path.substr(std::string("/api/game/").size());
    auto id = to_int(id_text, 1, INT64_MAX);
    if (!id) return answer(error_response(404, "no game '" + id_text + "'"));
    return cached(key, forever, [this, id = *id] {
      auto g = game_detail_json(store_, id);
      if (!g) return error_response(404, "no game " + std::to_string(id));
      return json_response(200, std::move(*g));
    });
  }
  if (t.path.starts_with("/api/query/")) {
    const std::string what = t.path.substr(std::string("/api/query/").size());
    if (!query_names().count(what)) return answer(error_response(404, "no query '" + what + "'"));
    std::vector<std::string> words;
    bool named_tournament = false;
    for (const auto& [k, v] : t.params) {
      const auto param = api_query_params().find(k);
      if (param == api_query_params().end())
        return answer(error_response(400, "unknown parameter '" + k + "' for " + t.path));
      named_tournament = named_tournament || k == "tournament";
      if (!param->second) {
        if (v == "0" || v == "false") continue;
        if (!v.empty() && v != "1" && v != "true")
          return answer(
              error_response(400, k + ": '" + v + "' (a switch: empty, 1, true, 0 or false)"));
        words.push_back("--" + k);
        continue;
      }
      words.push_back("--" + k);
      words.push_back(v);
    }
    // The game list is paged by /api/games; here it is bounded so that no request reads a
    // million rows.
    if (what == "games") {
      const std::string* limit = t.param("limit");
      if (!limit) {
        words.push_back("--limit");
        words.push_back("1000");
      } else if (!to_int(*limit, 1, 100000)) {
        return answer(error_response(400, "limit: '" + *limit + "' is not a number 1..100000"));
      }
    }
    if (!named_tournament)
      for (const auto& name : options_.filter.tournaments) {
        words.push_back("--tournament");
        words.push_back(name);
      }
    return cached(key, forever, [this, what, words] {
      auto json = query_json(store_, what, words);
      if (json) return json_response(200, std::move(*json));
      // A store that fails says so (503, no SQL) by throwing here; else the flags were wrong.
      (void)store_.queries().data_generation();
      return error_response(400, json.error());
    });
  }
  return answer(error_response(404, "not found: " + t.path));
}

ServeApi::Answer ServeApi::cached(const std::string& key, Clock::duration max_age,
                                  Compute compute) {
  std::unique_lock lock(mutex_);
  const auto now = Clock::now();
  Entry& e = cache_[key];
  e.last_used = now;
  if (e.response) {
    lru_.splice(lru_.begin(), lru_, e.lru);
    const bool fresh = e.generation == generation_ &&
                       (max_age == Clock::duration::zero() || now - e.computed_at < max_age);
    if (!fresh && queued_.insert(key).second) {
      e.compute = compute;
      queue_.push_back(key);
      wake_.notify_all();
    }
    return e.response;
  }
  if (e.pending.valid()) {
    auto pending = e.pending;
    lock.unlock();
    return pending.get();
  }
  // The first request for this answer computes it; concurrent ones wait for the same result.
  std::promise<Answer> promise;
  e.pending = promise.get_future().share();
  e.compute = compute;
  const std::string generation = generation_;
  lock.unlock();
  Answer response;
  try {
    response = std::make_shared<const Response>(compute());
  } catch (...) {
    promise.set_exception(std::current_exception());
    lock.lock();
    if (auto it = cache_.find(key); it != cache_.end() && !it->second.response) cache_.erase(it);
    throw;
  }
  lock.lock();
  keep(key, response, generation);
  lock.unlock();
  promise.set_value(response);
  return response;
}

void ServeApi::keep(const std::string& key, Answer response, const std::string& generation) {
  auto it = cache_.find(key);
  if (it == cache_.end()) it = cache_.emplace(key, Entry{}).first;
  Entry& e = it->second;
  e.pending = {};
  if (e.response) {
    cached_bytes_ -= e.bytes;
    lru_.erase(e.lru);
    e.response.reset();
  }
  const std::size_t bytes = response->body.size() + key.size() + kEntryOverhead;
  // Too big to keep: computed for the requests that asked, then gone with the last of them.
  if (bytes > options_.cache_bytes / 4) {
    cache_.erase(it);
    return;
  }
  e.response = std::move(response);
  e.bytes = bytes;
  e.generation = generation;
  e.computed_at = Clock::now();
  lru_.push_front(key);
  e.lru = lru_.begin();
  cached_bytes_ += bytes;
  while (cached_bytes_ > options_.cache_bytes && !lru_.empty()) forget(cache_.find(lru_.back()));
}

void ServeApi::forget(std::map<std::string, Entry>::iterator it) {
  if (it == cache_.end()) return;
  if (it->second.response) {
    cached_bytes_ -= it->second.bytes;
    lru_.erase(it->second.lru);
  }
  cache_.erase(it);
}

void ServeApi::refresher(std::stop_token stop) {
  std::string last_error;
  while (!stop.stop_requested()) {
    std::string key;
    Compute compute;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, stop, options_.poll, [&] { return !queue_.empty(); });
      if (stop.stop_requested()) return;
      if (!queue_.empty()) {
        key = queue_.front();
        queue_.pop_front();
        queued_.erase(key);
        auto it = cache_.find(key);
        if (it != cache_.end()) compute = it->second.compute;
      }
    }
    try {
      if (compute) {
        std::string generation;
        {
          std::lock_guard lock(mutex_);
          generation = generation_;
        }
        auto response = std::make_shared<const Response>(compute());
        std::lock_guard lock(mutex_);
        keep(key, std::move(response), generation);
        if (auto it = cache_.find(key); it != cache_.end() && !it->second.compute)
          it->second.compute = compute;
        continue;
      }
      // Nothing queued within a poll interval: read the generation. When it changed, refresh
      // the answers clients asked for in the last minute, the most recent first.
      std::string generation = store_.queries().data_generation();
      std::lock_guard lock(mutex_);
      if (generation != generation_) {
        generation_ = generation;
        std::vector<std::pair<Clock::time_point, std::string>> recent;
        const auto now = Clock::now();
        for (const auto& [k, e] : cache_)
          if (e.response && now - e.last_used < std::chrono::minutes(1))
            recent.emplace_back(e.last_used, k);
        std::sort(recent.rbegin(), recent.rend());
        for (const auto& [when, k] : recent)
          if (queued_.insert(k).second) queue_.push_back(k);
      }
      last_error.clear();
    } catch (const std::exception& e) {
      // A store error (the file gone, a lock held too long) is reported once per change and
      // retried; the answers already cached keep being served.
      if (last_error != e.what()) std::fprintf(stderr, "knightly serve: %s\n", e.what());
      last_error = e.what();
    }
  }
}

}  // namespace knightly::runner

#include "runner/cli/serve_api.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>

#include "runner/cli/query.h"
#include "runner/cli/report_source.h"
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
  generation_ = store_.data_generation();
  thread_ = std::jthread([this](std::stop_token stop) { refresher(stop); });
}

ServeApi::~ServeApi() {
  thread_.request_stop();
  wake_.notify_all();
}

std::string ServeApi::now() const {
  return db::utc_now_iso();
}

Response ServeApi::handle(const serve::Request& request) {
  auto target = serve::parse_target(request.target);
  if (!target) return error_response(400, target.error());
  return route(*target);
}

Response ServeApi::route(const serve::Target& t) {
  auto only = [&](std::initializer_list<const char*> allowed) -> std::optional<Response> {
    for (const auto& [k, v] : t.params) {
      bool ok = false;
      for (const char* a : allowed) ok = ok || k == a;
      if (!ok) return error_response(400, "unknown parameter '" + k + "' for " + t.path);
    }
    return std::nullopt;
  };
  const std::string key = cache_key(t);
  const Clock::duration forever = Clock::duration::zero();

  if (t.path == "/" || t.path == "/index.html") {
    if (auto bad = only({})) return *bad;
    return *cached(key, forever, [this] {
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
    if (auto bad = only({})) return *bad;
    return json_response(200, kIndex);
  }
  if (t.path == "/api/report") {
    if (auto bad = only({})) return *bad;
    return *cached(key, forever, [this] {
      ReportOptions o;
      o.filter = options_.filter;
      o.title = options_.title;
      o.games = options_.first_page;
      o.details = false;
      return json_response(200, report_document(store_, o, now()));
    });
  }
  if (t.path == "/api/summary") {
    if (auto bad = only({})) return *bad;
    return *cached(key, std::chrono::seconds(1), [this] {
      return json_response(200, summary_document(store_, options_.filter, now()));
    });
  }
  if (t.path == "/api/games") {
    if (auto bad = only({"before", "limit", "engine", "result", "termination"})) return *bad;
    db::GameFilter f = options_.filter;
    std::int64_t before = 0;
    int limit = 50;
    if (const auto* v = t.param("before")) {
      auto n = to_int(*v, 0, INT64_MAX);
      if (!n) return error_response(400, "before: '" + *v + "' is not a game id");
      before = *n;
    }
    if (const auto* v = t.param("limit")) {
      auto n = to_int(*v, 1, 500);
      if (!n) return error_response(400, "limit: '" + *v + "' is not a number 1..500");
      limit = static_cast<int>(*n);
    }
    if (const auto* v = t.param("engine"); v && !v->empty()) f.engines.push_back(*v);
    if (const auto* v = t.param("result"); v && !v->empty()) {
      if (*v != "1-0" && *v != "0-1" && *v != "1/2-1/2")
        return error_response(400, "result: '" + *v + "' (1-0, 0-1 or 1/2-1/2)");
      f.result = *v;
    }
    if (const auto* v = t.param("termination"); v && !v->empty()) f.termination = *v;
    return *cached(key, forever, [this, f, before, limit] {
      return json_response(200, games_page_json(store_, f, before, limit));
    });
  }
  if (t.path.starts_with("/api/game/")) {
    if (auto bad = only({})) return *bad;
    const std::string id_text = t.path.substr(std::string("/api/game/").size());
    auto id = to_int(id_text, 1, INT64_MAX);
    if (!id) return error_response(404, "no game '" + id_text + "'");
    return *cached(key, forever, [this, id = *id] {
      auto g = game_detail_json(store_, id);
      if (!g) return error_response(404, "no game " + std::to_string(id));
      return json_response(200, std::move(*g));
    });
  }
  if (t.path.starts_with("/api/query/")) {
    const std::string what = t.path.substr(std::string("/api/query/").size());
    if (!query_names().count(what)) return error_response(404, "no query '" + what + "'");
    std::vector<std::string> words;
    bool named_tournament = false;
    for (const auto& [k, v] : t.params) {
      const auto param = api_query_params().find(k);
      if (param == api_query_params().end())
        return error_response(400, "unknown parameter '" + k + "' for " + t.path);
      named_tournament = named_tournament || k == "tournament";
      if (!param->second) {
        if (v == "0" || v == "false") continue;
        if (!v.empty() && v != "1" && v != "true")
          return error_response(400, k + ": '" + v + "' (a switch: empty, 1, true, 0 or false)");
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
        return error_response(400, "limit: '" + *limit + "' is not a number 1..100000");
      }
    }
    if (!named_tournament)
      for (const auto& name : options_.filter.tournaments) {
        words.push_back("--tournament");
        words.push_back(name);
      }
    return *cached(key, forever, [this, what, words] {
      auto json = query_json(store_, what, words);
      return json ? json_response(200, std::move(*json)) : error_response(400, json.error());
    });
  }
  return error_response(404, "not found: " + t.path);
}

std::shared_ptr<const Response> ServeApi::cached(const std::string& key, Clock::duration max_age,
                                                 Compute compute) {
  std::unique_lock lock(mutex_);
  const auto now = Clock::now();
  Entry& e = cache_[key];
  e.last_used = now;
  if (e.response) {
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
  std::promise<std::shared_ptr<const Response>> promise;
  e.pending = promise.get_future().share();
  e.compute = compute;
  const std::string generation = generation_;
  lock.unlock();
  std::shared_ptr<const Response> response;
  try {
    response = std::make_shared<const Response>(compute());
  } catch (...) {
    promise.set_exception(std::current_exception());
    lock.lock();
    cache_.erase(key);
    throw;
  }
  lock.lock();
  Entry& done = cache_[key];
  done.response = response;
  done.generation = generation;
  done.computed_at = Clock::now();
  done.pending = {};
  lock.unlock();
  promise.set_value(response);
  // Bounded: a client asking for many distinct pages cannot grow the cache without end.
  lock.lock();
  if (cache_.size() > 1000) {
    for (auto it = cache_.begin(); it != cache_.end();)
      it = it->second.response && it->second.generation != generation_ ? cache_.erase(it)
                                                                       : std::next(it);
    if (cache_.size() > 1000)
      for (auto it = cache_.begin(); it != cache_.end();)
        it = it->second.response && !queued_.count(it->first) ? cache_.erase(it) : std::next(it);
  }
  return response;
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
        Entry& e = cache_[key];
        e.response = response;
        e.generation = generation;
        e.computed_at = Clock::now();
        if (!e.compute) e.compute = compute;
        continue;
      }
      // Nothing queued within a poll interval: read the generation. When it changed, refresh
      // the answers clients asked for in the last minute, the most recent first.
      std::string generation = store_.data_generation();
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

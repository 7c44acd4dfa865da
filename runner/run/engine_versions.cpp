#include "runner/run/engine_versions.h"

#include <cstdlib>
#include <optional>

#include "runner/config/engine_check.h"
#include "runner/run/binary_hash_cache.h"

namespace knightly::runner {

std::string command_line(const EngineConfig& e) {
  std::string s = e.command;
  for (const auto& a : e.args) s += " " + a;
  return s;
}

std::string options_text(const EngineConfig& e) {
  std::string s;
  for (const auto& [k, v] : e.options) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s;
}

EngineVersions::EngineVersions(const Config& config, db::Store& store, std::string target,
                               db::StoreOptions options, const std::string& cache_root)
    : store_(store),
      target_(std::move(target)),
      options_(options),
      hash_cache_(binary_hash_cache(cache_root)),
      info_(config.engines.size()),
      programs_(config.engines.size()),
      hashed_(config.engines.size(), true),
      ids_(config.engines.size()),
      sources_(config.engines.size()) {
  const char* path_env = std::getenv("PATH");
  bool any = false;
  for (std::size_t i = 0; i < config.engines.size(); ++i) {
    const auto& e = config.engines[i];
    auto& info = info_[i];
    info.name = e.name;
    info.builtin = e.builtin;
    info.options = options_text(e);
    sources_[i] = e.source;
    if (e.builtin) continue;
    info.command = command_line(e);
    if (auto program = find_program(e.command, path_env ? path_env : "")) {
      programs_[i] = *program;
      hashed_[i] = false;
      any = true;
    }
  }
  if (any) hasher_ = std::thread([this] { hash_all(); });
}

EngineVersions::~EngineVersions() {
  if (hasher_.joinable()) hasher_.join();
}

void EngineVersions::hash_all() {
  // No exception leaves the thread: a store error is handed to whoever asks for an id.
  // The user's cache first: a program it knows as it is now (the usual case) needs neither
  // the database nor its own connection (about 1 ms of CPU before the first game).
  const std::filesystem::path& cache = hash_cache_;
  std::vector<std::optional<std::string>> known(info_.size());
  bool all_known = true;
  for (std::size_t i = 0; i < info_.size(); ++i) {
    if (programs_[i].empty()) continue;
    try {
      known[i] = known_binary_sha256(programs_[i], cache);
    } catch (...) {
    }
    all_known = all_known && known[i];
  }
  // Else a connection of its own (the store serializes calls on one): reading a large binary
  // must not hold up the claims and stores of the game threads. Without one, the shared
  // store does.
  std::optional<db::Store> own;
  try {
    if (!all_known)
      if (auto s = db::Store::open(target_, options_)) own.emplace(std::move(*s));
  } catch (...) {
  }
  db::Store& store = own ? *own : store_;
  const auto hash_of = [&](const std::string& path) { return cached_binary_sha256(path, cache); };
  for (std::size_t i = 0; i < info_.size(); ++i) {
    if (programs_[i].empty()) continue;
    std::string hash;
    std::exception_ptr error;
    try {
      hash =
          known[i] ? *known[i] : store.catalog().binary_sha256(programs_[i], hash_of).value_or("");
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    info_[i].binary_sha256 = hash;
    if (error && !hash_error_) hash_error_ = error;
    hashed_[i] = true;
    cv_.notify_all();
  }
}

std::int64_t EngineVersions::id(int index) {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [&] { return bool(hashed_[index]); });
  if (hash_error_) std::rethrow_exception(hash_error_);
  if (!ids_[index]) {
    const std::int64_t id = store_.catalog().upsert_engine(info_[index]);
    // A version built from source names its commit (every game's players lead to it).
    if (const auto& s = sources_[index]; s && !s->commit.empty())
      store_.test_queue().set_engine_source(id, s->repo, s->commit);
    ids_[index] = id;
  }
  return *ids_[index];
}

void EngineVersions::identified(int index, const std::string& name, const std::string& author) {
  std::lock_guard lock(mutex_);
  if (info_[index].uci_name == name && info_[index].uci_author == author) return;
  info_[index].uci_name = name;
  info_[index].uci_author = author;
  // A row written before the handshake gets the names filled in now (same version).
  if (ids_[index] && hashed_[index]) store_.catalog().upsert_engine(info_[index]);
}

}  // namespace knightly::runner

#pragma once
// The engine versions a run's games are stored against (engines table: name, command, options,
// binary hash). The SHA-256 of an engine program is computed on a background thread while the
// first games play, not before them (a large binary takes a while to read), through a store
// connection of its own so the game threads' claims and stores never wait for it; a version's
// row is written when its first game is stored, with the names the engine gave in its
// handshake.
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "db/store/store.h"
#include "runner/config/config.h"

namespace knightly::runner {

class EngineVersions {
 public:
  // `target`, `options`: how `store` was opened (the hashing thread opens its own connection);
  // `cache_root`: the user's cache directory (--cache DIR; "" = the default), where the
  // programs' hashes are remembered (binary_hash_cache.h).
  EngineVersions(const Config& config, db::Store& store, std::string target,
                 db::StoreOptions options, const std::string& cache_root = "");
  ~EngineVersions();
  EngineVersions(const EngineVersions&) = delete;
  EngineVersions& operator=(const EngineVersions&) = delete;

  // The row id of engine `index`'s version; the first call may wait for its binary's hash.
  // Throws StoreException.
  std::int64_t id(int index);
  // What the engine said in its UCI handshake ("id name", "id author").
  void identified(int index, const std::string& name, const std::string& author);

 private:
  void hash_all();

  db::Store& store_;
  std::string target_;
  db::StoreOptions options_;
  std::filesystem::path hash_cache_;
  std::vector<db::EngineInfo> info_;
  std::vector<std::string> programs_;  // resolved program paths, "" when not hashed
  std::vector<bool> hashed_;
  std::vector<std::optional<std::int64_t>> ids_;
  std::vector<std::optional<EngineSource>> sources_;  // engines built from source: their commit
  std::exception_ptr hash_error_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::thread hasher_;
};

// "Hash=16 Threads=1": the UCI options as stored with a version.
std::string options_text(const EngineConfig& engine);
// The command line as stored with a version (argv joined by spaces).
std::string command_line(const EngineConfig& engine);

}  // namespace knightly::runner

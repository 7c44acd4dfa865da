#include "runner/run/binary_hash_cache.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <vector>

#include "db/store/sha256.h"
#include "runner/run/replace_file.h"
#include "runner/source/source_cache.h"

namespace knightly::runner {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kEntries = 256;

// "dev inode size mtime_ns ctime_ns ": the start of the program's line in the cache.
std::optional<std::string> key_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  const auto ns = [](const timespec& t) {
    return std::int64_t(t.tv_sec) * 1000000000 + std::int64_t(t.tv_nsec);
  };
  std::ostringstream key;
  key << std::uint64_t(st.st_dev) << ' ' << std::uint64_t(st.st_ino) << ' '
      << std::int64_t(st.st_size) << ' ' << ns(st.st_mtim) << ' ' << ns(st.st_ctim) << ' ';
  return key.str();
}

bool is_hex_hash(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

fs::path binary_hash_cache(const std::string& root) {
  return SourceCache::root_or_default(root) / "binary-hashes";
}

namespace {

// The hash `cache_file` holds under `key`, else nullopt and, when `others` is given, the
// cache's other well-formed lines in it.
std::optional<std::string> look_up(const std::string& key, const fs::path& cache_file,
                                   std::vector<std::string>* others) {
  std::ifstream in(cache_file);
  for (std::string line; std::getline(in, line);) {
    // A line that does not end in a hash (a damaged cache) is dropped when it is written.
    if (line.size() < 65 || !is_hex_hash(std::string_view(line).substr(line.size() - 64))) continue;
    if (line.size() == key.size() + 64 && line.starts_with(key)) return line.substr(key.size());
    if (others) others->push_back(std::move(line));
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> known_binary_sha256(const std::string& path,
                                               const fs::path& cache_file) {
  const auto key = key_of(path);
  return key ? look_up(*key, cache_file, nullptr) : std::nullopt;
}

std::optional<std::string> cached_binary_sha256(const std::string& path,
                                                const fs::path& cache_file) {
  const auto key = key_of(path);
  if (!key) return db::sha256_file(path);
  std::vector<std::string> lines;
  if (auto known = look_up(*key, cache_file, &lines)) return known;
  auto hash = db::sha256_file(path);
  // The file changed while it was read: its hash is not remembered under the old key.
  if (!hash || key_of(path) != key) return hash;
  // Replaced whole (replace_file): a reader sees the old cache or the new one; of two
  // processes adding at once, one's entry may be lost (and hashed again next time). A cache
  // that cannot be written is passed over.
  std::error_code ec;
  fs::create_directories(cache_file.parent_path(), ec);
  std::string text;
  const std::size_t keep = std::min(lines.size(), kEntries - 1);
  for (std::size_t i = lines.size() - keep; i < lines.size(); ++i) text += lines[i] + '\n';
  text += *key + *hash + '\n';
  (void)replace_file(cache_file, text);
  return hash;
}

}  // namespace knightly::runner

#pragma once
// SHA-256 of engine programs remembered across databases, in the user's cache directory: a
// run on a fresh database does not read a large binary again (a 47 MB Stockfish costs some
// 45 ms of CPU before the first game). A program is known by its device, inode, size,
// modification and change times: a rebuilt, replaced or touched binary has another key and
// is hashed afresh (its change time moves whatever its modification time is set to). Best
// effort: a cache that cannot be read or written is passed over and the file hashed.
#include <filesystem>
#include <optional>
#include <string>

namespace knightly::runner {

// ROOT/binary-hashes, ROOT the cache directory the user named (--cache DIR) or else the
// default one (SourceCache::root_or_default).
std::filesystem::path binary_hash_cache(const std::string& root = "");

// The hash of the program at `path`: from `cache_file` when it knows the file as it is now,
// else read from the file and added there (the newest 256 programs are kept). nullopt when
// the program cannot be read.
std::optional<std::string> cached_binary_sha256(const std::string& path,
                                                const std::filesystem::path& cache_file);
// The hash `cache_file` knows for the program as it is now, without reading the program:
// nullopt when it does not know it (or cannot be read).
std::optional<std::string> known_binary_sha256(const std::string& path,
                                               const std::filesystem::path& cache_file);

}  // namespace knightly::runner

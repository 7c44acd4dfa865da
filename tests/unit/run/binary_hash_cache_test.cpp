// Engine programs' hashes remembered across databases: found again while the file is the
// same, hashed afresh once it is rebuilt, touched or replaced; a damaged cache is passed over.
#include "runner/run/binary_hash_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "db/store/sha256.h"
#include "tests/support/process.h"

using knightly::db::sha256_file;
using knightly::db::sha256_hex;
using knightly::runner::cached_binary_sha256;
using knightly::test::read_file;
using knightly::test::TempDir;
using knightly::test::write_file;

namespace {

void set_mtime(const std::string& path, long seconds) {
  timespec times[2] = {{seconds, 0}, {seconds, 0}};
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
}

// The cache's line for the program, its hash replaced: what a later call returns shows
// whether the cache was read or the file.
void forge(const std::string& cache, const std::string& hash) {
  std::string text = read_file(cache);
  REQUIRE(text.size() > 65);
  text.replace(text.size() - 65, 64, hash);
  write_file(cache, text);
}

}  // namespace

TEST_CASE("a program's hash is found in the cache while the file is the same") {
  TempDir dir;
  const std::string program = dir.file("engine"), cache = dir.file("cache/binary-hashes");
  write_file(program, "build one");
  set_mtime(program, 1700000000);
  // First: read from the file, and remembered (the cache's directory made).
  CHECK(cached_binary_sha256(program, cache) == sha256_hex("build one"));
  REQUIRE(std::filesystem::exists(cache));
  // Then from the cache, not the file: a forged entry comes back.
  const std::string forged(64, 'a');
  forge(cache, forged);
  CHECK(cached_binary_sha256(program, cache) == forged);
  // Rebuilt with the same size and modification time set back: its change time moved, so
  // it is hashed afresh. (The kernel's file times move a clock tick at a time: written until
  // the change time shows it.)
  const auto ctime = [&] {
    struct stat st {};
    REQUIRE(::stat(program.c_str(), &st) == 0);
    return std::int64_t(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  };
  const std::int64_t hashed_at = ctime();
  for (int tries = 0; ctime() == hashed_at && tries < 1000; ++tries) {
    ::usleep(1000);
    write_file(program, "build two");
    set_mtime(program, 1700000000);
  }
  REQUIRE(ctime() != hashed_at);
  CHECK(cached_binary_sha256(program, cache) == sha256_hex("build two"));
  // Replaced by another file (another inode) of the same size and times: afresh too.
  write_file(dir.file("other"), "build 3rd");
  set_mtime(dir.file("other"), 1700000000);
  std::filesystem::rename(dir.file("other"), program);
  CHECK(cached_binary_sha256(program, cache) == sha256_hex("build 3rd"));
  // A missing program has no hash and adds nothing.
  CHECK_FALSE(cached_binary_sha256(dir.file("missing"), cache).has_value());
}

TEST_CASE("the hash cache keeps the newest programs and passes over what it cannot use") {
  TempDir dir;
  const std::string cache = dir.file("binary-hashes");
  // A damaged cache: its lines are dropped, the program hashed and the cache written again.
  write_file(cache, "garbage\n1 2 3 4 5 not-a-hash\n");
  write_file(dir.file("p0"), "p0");
  CHECK(cached_binary_sha256(dir.file("p0"), cache) == sha256_hex("p0"));
  CHECK(read_file(cache).find("garbage") == std::string::npos);
  // 300 programs: the cache holds the newest 256, one line each.
  for (int i = 1; i <= 300; ++i) {
    write_file(dir.file("p" + std::to_string(i)), "program " + std::to_string(i));
    CHECK(cached_binary_sha256(dir.file("p" + std::to_string(i)), cache) ==
          sha256_hex("program " + std::to_string(i)));
  }
  std::ifstream in(cache);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  CHECK(lines == 256);
  CHECK(read_file(cache).find(sha256_hex("program 300")) != std::string::npos);
  CHECK(read_file(cache).find(sha256_hex("program 44")) == std::string::npos);
  // A cache that cannot be written (its directory is a file): the hash still comes back.
  CHECK(cached_binary_sha256(dir.file("p1"), dir.file("p2") + "/binary-hashes") ==
        sha256_hex("program 1"));
  CHECK(cached_binary_sha256(dir.file("p1"), dir.file("p2") + "/binary-hashes") ==
        sha256_file(dir.file("p1")));
}

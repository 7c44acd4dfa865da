// The PGN file's CRC-32 as fishtest checks it (Python's hex(zlib.crc32(data))).
#include "runner/output/crc32.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

using namespace knightly::runner;

TEST_CASE("CRC-32 check values, chained, and of a file", "[crc32]") {
  CHECK(crc32("") == 0u);
  CHECK(crc32("123456789") == 0xcbf43926u);  // the standard check value
  CHECK(crc32("The quick brown fox jumps over the lazy dog") == 0x414fa339u);
  CHECK(crc32("\n") == 0x32d70693u);
  CHECK(crc32("6789", crc32("12345")) == 0xcbf43926u);

  const auto path = (std::filesystem::temp_directory_path() / "knightly-crc32-test.pgn").string();
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "[Event \"" + std::to_string(i) + "\"]\n";
  { std::ofstream(path, std::ios::binary) << text; }
  auto file = file_crc32(path);
  REQUIRE(file.has_value());
  CHECK(*file == crc32(text));  // over more than one 64 KiB read
  CHECK(crc32_line(path, 0x0ab) == "PGN file " + path + " has CRC32: 0xab");
  std::filesystem::remove(path);
  auto missing = file_crc32(path);
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().find(path) != std::string::npos);
}

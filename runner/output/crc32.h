#pragma once
// CRC-32 (IEEE 802.3, zlib's crc32) of the PGN file, printed as fastchess's -crc32 pgn=true does
// so that fishtest can check the file it uploads: "PGN file F has CRC32: 0x1a2b3c4d".
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace knightly::runner {

// Continues `crc` (0 to start) over `data`: crc32(b, crc32(a)) == crc32(a + b).
std::uint32_t crc32(std::string_view data, std::uint32_t crc = 0);

// The CRC-32 of a whole file; an error naming the file when it cannot be read.
std::expected<std::uint32_t, std::string> file_crc32(const std::string& path);

// "PGN file F has CRC32: 0x..." with Python's hex() form (lower case, no leading zeros),
// which is what fishtest compares.
std::string crc32_line(const std::string& path, std::uint32_t crc);

}  // namespace knightly::runner

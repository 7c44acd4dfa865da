#include "runner/output/crc32.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace knightly::runner {

namespace {

constexpr std::array<std::uint32_t, 256> make_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}

constexpr auto table = make_table();

}  // namespace

std::uint32_t crc32(std::string_view data, std::uint32_t crc) {
  crc = ~crc;
  for (unsigned char b : data) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

std::expected<std::uint32_t, std::string> file_crc32(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected("cannot read " + path + ": " + std::strerror(errno));
  std::uint32_t crc = 0;
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    crc = crc32(std::string_view(buf, static_cast<std::size_t>(in.gcount())), crc);
  }
  if (in.bad()) return std::unexpected("cannot read " + path + ": read error");
  return crc;
}

std::string crc32_line(const std::string& path, std::uint32_t crc) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%x", crc);
  return "PGN file " + path + " has CRC32: " + hex;
}

}  // namespace knightly::runner

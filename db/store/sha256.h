#pragma once
// SHA-256 (FIPS 180-4), for config hashes, import content hashes and engine binaries.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace knightly::db {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);
  void update(std::string_view text) { update(text.data(), text.size()); }
  std::string hex_digest();  // finishes the hash; lowercase hex, 64 characters

 private:
  void block(const unsigned char* p);

  std::uint32_t h_[8];
  unsigned char buffer_[64];
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

std::string sha256_hex(std::string_view text);
// The hash of a file's bytes, or nullopt when it cannot be read.
std::optional<std::string> sha256_file(const std::string& path);

}  // namespace knightly::db

#include "runner/run/replace_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace knightly::runner {

std::expected<void, std::string> replace_file(const std::filesystem::path& path,
                                              std::string_view text) {
  static std::atomic<unsigned> serial{0};
  const std::filesystem::path temp =
      path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
  std::error_code ec;
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return std::unexpected("cannot write " + temp.string() + ": " + std::strerror(errno));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      const int e = errno;
      std::filesystem::remove(temp, ec);
      return std::unexpected("cannot write " + temp.string() + ": " + std::strerror(e));
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(temp, ec);
    return std::unexpected("cannot write " + path.string() + ": " + why);
  }
  return {};
}

}  // namespace knightly::runner

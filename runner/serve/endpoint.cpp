#include "runner/serve/endpoint.h"

#include <arpa/inet.h>

#include "engine/base/int_text.h"

namespace knightly::runner::serve {

std::expected<Endpoint, std::string> parse_endpoint(std::string_view text) {
  const std::string what = "'" + std::string(text) + "'";
  Endpoint e;
  std::string_view port;
  bool v6 = false;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':')
      return std::unexpected(what + ": expected [IPv6 address]:PORT");
    e.host = std::string(text.substr(1, close - 1));
    port = text.substr(close + 2);
    v6 = true;
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos)
      return std::unexpected(what + ": expected ADDRESS:PORT, e.g. 127.0.0.1:8080");
    e.host = std::string(text.substr(0, colon));
    port = text.substr(colon + 1);
  }
  unsigned char buf[16];
  if (inet_pton(v6 ? AF_INET6 : AF_INET, e.host.c_str(), buf) != 1)
    return std::unexpected(what + ": '" + e.host + "' is not an IP" + (v6 ? "v6" : "v4") +
                           " address (names are not looked up)");
  const auto p = base::parse_int(what + ": port", port, 0, 65535);
  if (!p) return std::unexpected(p.error());
  e.port = static_cast<int>(*p);
  return e;
}

}  // namespace knightly::runner::serve

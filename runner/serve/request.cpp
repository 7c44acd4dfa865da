#include "runner/serve/request.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace knightly::runner::serve {

namespace http = boost::beast::http;

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The host of a Host header without its port and brackets ("[::1]:80" -> "::1"), lower case,
// without a trailing dot; "" when it is malformed.
std::string host_name(std::string_view header) {
  const auto digits = [](std::string_view port) {
    return std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  std::string_view host = header;
  bool bracketed = false;
  if (!host.empty() && host.front() == '[') {
    // "[IPv6]" or "[IPv6]:PORT", nothing else.
    const auto close = host.find(']');
    if (close == std::string_view::npos) return "";
    const std::string_view rest = host.substr(close + 1);
    if (!rest.empty() && (rest.front() != ':' || !digits(rest.substr(1)))) return "";
    host = host.substr(1, close - 1);
    bracketed = true;
  } else if (const auto colon = host.rfind(':'); colon != std::string_view::npos) {
    if (host.find(':') != colon) return "";  // an IPv6 address must be in brackets
    if (!digits(host.substr(colon + 1))) return "";
    host = host.substr(0, colon);
  }
  if (bracketed) {
    unsigned char a[16];
    if (inet_pton(AF_INET6, std::string(host).c_str(), a) != 1) return "";
  }
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (host.empty()) return "";
  for (char c : host)
    if (static_cast<unsigned char>(c) <= ' ' || c == '/' || c == '@' || c == '\\' || c == 0x7F)
      return "";
  return lower(host);
}

bool is_v4(const std::string& s, unsigned char* out) {
  return inet_pton(AF_INET, s.c_str(), out) == 1;
}

bool is_v6(const std::string& s, unsigned char* out) {
  return inet_pton(AF_INET6, s.c_str(), out) == 1;
}

bool same_address(const std::string& a, const std::string& b) {
  unsigned char x[16], y[16];
  if (is_v4(a, x) && is_v4(b, y)) return std::equal(x, x + 4, y);
  if (is_v6(a, x) && is_v6(b, y)) return std::equal(x, x + 16, y);
  return false;
}

}  // namespace

bool host_allowed(std::string_view header, const HostPolicy& policy) {
  const std::string host = host_name(header);
  if (host.empty()) return false;
  if (host == "localhost" || host.ends_with(".localhost")) return true;
  unsigned char a[16];
  const bool v4 = is_v4(host, a);
  if (v4 && a[0] == 127) return true;
  const bool v6 = !v4 && is_v6(host, a);
  if (v6 && same_address(host, "::1")) return true;
  if ((v4 || v6) && same_address(host, policy.bound)) return true;
  // Bound to every address of the machine: any address literal names it (a rebinding page
  // needs a name of its own, never an address).
  if ((v4 || v6) && (policy.bound == "0.0.0.0" || policy.bound == "::")) return true;
  for (const std::string& name : policy.allowed)
    if (host == host_name(name)) return true;
  return false;
}

void configure_parser(RequestParser& parser, std::size_t max_header_bytes) {
  parser.header_limit(static_cast<std::uint32_t>(max_header_bytes));
  parser.body_limit(0);
}

std::expected<Accepted, Refusal> examine_request(const boost::beast::error_code& ec,
                                                 const RequestParser& parser,
                                                 const HostPolicy& policy) {
  if (ec == http::error::header_limit)
    return std::unexpected(Refusal{431, "request header too large"});
  if (ec == http::error::body_limit || ec == http::error::unexpected_body)
    return std::unexpected(Refusal{413, "a request body is not accepted"});
  if (ec) return std::unexpected(Refusal{400, "bad request"});
  if (!parser.is_header_done()) return std::unexpected(Refusal{0, "incomplete request"});
  const auto& req = parser.get();
  const bool head = req.method() == http::verb::head;
  const bool keep_alive = req.keep_alive();
  if (req.method() != http::verb::get && !head)
    return std::unexpected(Refusal{405, "method not allowed: only GET and HEAD", keep_alive});
  // One Host, naming this server (HTTP/1.0 requests without one are refused too: the check
  // is the point).
  const auto hosts = req.equal_range(http::field::host);
  if (hosts.first == hosts.second || std::next(hosts.first) != hosts.second)
    return std::unexpected(Refusal{400, "one Host header is required", false, head});
  const auto host = hosts.first->value();
  if (!host_allowed(std::string_view(host.data(), host.size()), policy))
    return std::unexpected(Refusal{403,
                                   "this server does not answer for that Host (knightly serve "
                                   "--allow-host NAME adds a name)",
                                   false, head});
  // A browser says where a request comes from: another site's page (an <img> or a script
  // aimed at 127.0.0.1) gets nothing, not even a computation.
  const auto site = req.find("Sec-Fetch-Site");
  if (site != req.end() && boost::beast::iequals(site->value(), "cross-site"))
    return std::unexpected(
        Refusal{403, "requests from other sites' pages are not answered", false, head});
  const auto target = req.target();
  return Accepted{Request{"GET", std::string(target.data(), target.size())}, keep_alive, head};
}

std::expected<Accepted, Refusal> read_request(std::string_view bytes, std::size_t max_header_bytes,
                                              const HostPolicy& policy) {
  RequestParser parser;
  configure_parser(parser, max_header_bytes);
  parser.eager(true);
  boost::beast::error_code ec;
  std::size_t used = 0;
  while (used < bytes.size() && !parser.is_done()) {
    const std::size_t n =
        parser.put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), ec);
    if (ec == http::error::need_more) {
      ec = {};
      break;
    }
    if (ec) break;
    if (n == 0) break;
    used += n;
  }
  if (!ec && !parser.is_done()) return std::unexpected(Refusal{0, "incomplete request"});
  return examine_request(ec, parser, policy);
}

std::string error_json(std::string_view message) {
  std::string out = "{\"error\":\"";
  for (unsigned char c : message) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"}\n";
}

}  // namespace knightly::runner::serve

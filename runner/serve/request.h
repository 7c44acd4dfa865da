#pragma once
// What the server makes of the bytes a client sends, with no socket: Beast's request parser
// set up with the server's limits, then the checks every request passes before a handler sees
// it (method, body, Host). HttpServer's connections and the fuzz target (tests/fuzz) use the
// same functions, so what is fuzzed is what serves.
//
// The Host check is the defence against DNS rebinding: a web page on attacker.example whose
// name is made to resolve to 127.0.0.1 can reach a loopback server, but its requests carry
// `Host: attacker.example`. Only the names that mean this machine are answered: localhost
// (and *.localhost), loopback addresses, the address the server is bound to (any address of
// the machine when bound to 0.0.0.0 or ::), and names given with --allow-host. A request a
// browser marks as coming from another site's page (Sec-Fetch-Site: cross-site) is refused
// too: a page cannot make the server compute for it.
// clang-format off
#include <utility>  // Boost 1.74's Asio needs it before any of its headers
// clang-format on
#include <boost/beast/http.hpp>
#include <cstddef>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "runner/serve/http_server.h"

namespace knightly::runner::serve {

// Whether a Host header's value names this server under `policy` (its port is not looked at).
bool host_allowed(std::string_view host_header, const HostPolicy& policy);

// Why a request is not passed to the handler: the status, a message (fixed text: nothing the
// client sent is echoed), and an Allow header for 405.
struct Refusal {
  int status = 400;
  std::string message;
  bool keep_alive = false;
  bool head = false;
};

// A request the handler may see, and how to answer it.
struct Accepted {
  Request request;
  bool keep_alive = true;
  bool head = false;
};

using RequestParser = boost::beast::http::request_parser<boost::beast::http::empty_body>;

// A fresh parser with the server's limits: headers up to `max_header_bytes`, no body.
void configure_parser(RequestParser& parser, std::size_t max_header_bytes);

// After a read: the request, or why it is refused. `ec` is the read's error (none when a whole
// request was read). Connection-level ends (EOF, timeout, reset) are not refusals: the caller
// closes on those before asking.
std::expected<Accepted, Refusal> examine_request(const boost::beast::error_code& ec,
                                                 const RequestParser& parser,
                                                 const HostPolicy& policy);

// The whole path for a buffer of bytes, as a connection reading them would see it: parsed by
// a configured parser, then examined. For the fuzz target and the tests; bytes that end
// before the request does are a Refusal with status 0.
std::expected<Accepted, Refusal> read_request(std::string_view bytes, std::size_t max_header_bytes,
                                              const HostPolicy& policy);

// The JSON body every error of the server has: {"error":"MESSAGE"} (MESSAGE escaped).
std::string error_json(std::string_view message);

}  // namespace knightly::runner::serve

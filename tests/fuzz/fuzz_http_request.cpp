// What `knightly serve` makes of the bytes a client sends: Beast's request parser with the
// server's limits, then the checks before a handler (method, body, Host against DNS
// rebinding), then the request target's decoding - the very functions a connection calls
// (runner/serve/request.h, target.h). Never a crash; an accepted request is a GET whose Host
// names this machine and whose target decodes or is refused with a message; a refusal is one
// of the server's statuses, and its JSON body echoes nothing of the input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runner/serve/request.h"
#include "runner/serve/target.h"
#include "tests/fuzz/fuzz_check.h"

using namespace knightly;
using namespace knightly::runner::serve;

namespace {

bool printable_ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // Bound to loopback, and bound to every address with a name allowed: both policies.
  for (const HostPolicy& policy :
       {HostPolicy{"127.0.0.1", {}}, HostPolicy{"0.0.0.0", {"knightly.lab"}}}) {
    auto r = read_request(bytes, 8 * 1024, policy);
    if (!r) {
      const Refusal& no = r.error();
      fuzz::check(no.status == 0 || no.status == 400 || no.status == 403 || no.status == 405 ||
                      no.status == 413 || no.status == 431,
                  "a refusal has one of the server's statuses", std::to_string(no.status));
      const std::string body = error_json(no.message);
      fuzz::check(body.starts_with("{\"error\":\"") && body.ends_with("\"}\n"),
                  "an error body is one JSON object", body);
      fuzz::check(printable_ascii(body.substr(0, body.size() - 1)),
                  "an error body is printable ASCII", body);
      continue;
    }
    fuzz::check(r->request.method == "GET", "only GET (and HEAD as GET) reaches a handler");
    fuzz::check(bytes.find(r->request.target) != std::string_view::npos,
                "the target is what was sent", r->request.target);
    auto target = parse_target(r->request.target);
    if (target) {
      fuzz::check(target->path.starts_with("/"), "a decoded path starts with /", target->path);
      fuzz::check(target->path.find('\0') == std::string::npos, "a decoded path holds no NUL");
      for (const auto& [k, v] : target->params)
        fuzz::check(k.find('\0') == std::string::npos && v.find('\0') == std::string::npos,
                    "decoded parameters hold no NUL");
    }
  }
  // Any text as a Host header: accepted only for the names that mean this machine.
  const HostPolicy loopback{"127.0.0.1", {}};
  if (host_allowed(bytes, loopback)) {
    std::string host(bytes);
    for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    fuzz::check(host.find("localhost") != std::string::npos || host.starts_with("127.") ||
                    host.starts_with("[") || host.find("::") != std::string::npos ||
                    host.find(':') != std::string::npos,
                "an allowed Host is a loopback name or address", host);
    fuzz::check(host.find('/') == std::string::npos && host.find('@') == std::string::npos,
                "an allowed Host holds no '/' or '@'", host);
  }
  return 0;
}

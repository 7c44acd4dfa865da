#pragma once
// A small read-only HTTP/1.1 server on Boost.Beast: it answers GET and HEAD through a handler
// and nothing else. Every limit is the server's: methods other than GET/HEAD get 405, a
// request with a body 413, headers over the limit 431, a malformed request 400, a Host that
// does not name this server 403 (request.h: DNS rebinding), and a connection that does not
// send a whole request header within the header timeout (or read the answer within the
// write timeout) is closed, as are connections over the limit: per client address, and in
// all. Every error the server writes is a JSON body, {"error":"..."}, echoing nothing. The
// handler never sees a socket; an exception from it becomes a 500 whose body names no detail
// (the detail goes to stderr). Answers are written from the handler's shared, immutable
// Response, as the socket takes them: any number of connections sending one answer share one
// copy of it. I/O only: routing and content are the caller's.
#include <chrono>
#include <cstddef>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace knightly::runner::serve {

struct Request {
  std::string method;  // "GET" (HEAD requests reach the handler as GET; the body is dropped)
  std::string target;  // as sent: "/api/games?limit=50"
};

struct Response {
  int status = 200;
  std::string content_type = "application/json; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra header fields
};

// The answer is shared: the handler may keep it (a cache) while the server writes it.
using Handler = std::function<std::shared_ptr<const Response>(const Request&)>;

// Which Host headers are answered (request.h): loopback names and addresses and the bound
// address always, `allowed` names besides.
struct HostPolicy {
  std::string bound;                 // the address the server listens on, as bound
  std::vector<std::string> allowed;  // more names (--allow-host), compared without case
};

struct ServerOptions {
  std::string host = "127.0.0.1";  // a literal address (serve/endpoint.h)
  int port = 8080;                 // 0: any free port (address() tells which)
  int threads = 2;
  std::size_t max_header_bytes = 8 * 1024;
  std::chrono::milliseconds header_timeout{5000};  // to receive a whole request header
  std::chrono::milliseconds timeout{30000};        // to send a response
  int max_connections = 256;
  int max_connections_per_client = 16;     // per client address
  std::vector<std::string> allowed_hosts;  // names answered besides this machine's own
};

class HttpServer {
 public:
  // Binds, listens and starts the threads. Errors (bad address, port in use, no permission)
  // name the address.
  static std::expected<std::unique_ptr<HttpServer>, std::string> start(const ServerOptions& options,
                                                                       Handler handler);
  ~HttpServer();  // stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The address actually bound, "127.0.0.1:43817" or "[::1]:8080" ("" once stopped).
  std::string address() const;
  // Stops accepting, closes the connections and joins the threads. Idempotent; not to be
  // called from two threads at once.
  void stop();

  struct Impl;

 private:
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace knightly::runner::serve

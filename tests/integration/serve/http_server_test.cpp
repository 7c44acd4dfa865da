// The HTTP server over real sockets: only GET/HEAD reach the handler; bodies, huge headers,
// slow clients and too many connections are refused by the server itself.
#include "runner/serve/http_server.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <thread>
#include <vector>

#include "http_client.h"
#include "runner/serve/request.h"

using namespace knightly::runner::serve;
using knightly::test::body_of;
using knightly::test::RawConnection;
using knightly::test::status_line;

namespace {

struct TestServer {
  std::atomic<int> calls{0};
  std::unique_ptr<HttpServer> server;
  int port = 0;

  explicit TestServer(ServerOptions options = {}) {
    options.port = 0;
    auto s = HttpServer::start(options, [this](const Request& r) -> std::shared_ptr<Response> {
      ++calls;
      if (r.target == "/throw") throw std::runtime_error("handler failed: SELECT * FROM games");
      if (r.target == "/missing")
        return std::make_shared<Response>(Response{404, "text/plain", "no such thing", {}});
      return std::make_shared<Response>(Response{
          200, "application/json", "{\"target\":\"" + r.target + "\"}", {{"X-Test", "1"}}});
    });
    REQUIRE(s);
    server = std::move(*s);
    const std::string a = server->address();
    REQUIRE(a.starts_with("127.0.0.1:"));
    port = std::stoi(a.substr(a.find(':') + 1));
  }
};

}  // namespace

TEST_CASE("http server: GET answers through the handler, keep-alive serves a second request",
          "[serve][http]") {
  TestServer t;
  RawConnection c(t.port);
  c.send("GET /api/x?y=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
  const std::string r1 = c.response();
  CHECK(status_line(r1) == "HTTP/1.1 200 OK");
  CHECK(body_of(r1) == "{\"target\":\"/api/x?y=1\"}");
  CHECK(r1.find("Content-Type: application/json\r\n") != std::string::npos);
  CHECK(r1.find("X-Content-Type-Options: nosniff\r\n") != std::string::npos);
  CHECK(r1.find("X-Test: 1\r\n") != std::string::npos);
  c.send("GET /missing HTTP/1.1\r\nHost: localhost\r\n\r\n");
  const std::string r2 = c.response();
  CHECK(status_line(r2) == "HTTP/1.1 404 Not Found");
  CHECK(body_of(r2) == "no such thing");
  CHECK(t.calls == 2);
}

TEST_CASE("http server: HEAD sends the headers of GET without the body", "[serve][http]") {
  TestServer t;
  RawConnection c(t.port);
  c.send("HEAD /abc HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
  const std::string r = c.receive([](const std::string&) { return false; });
  CHECK(c.closed());
  CHECK(status_line(r) == "HTTP/1.1 200 OK");
  CHECK(r.find("Content-Length: 17\r\n") != std::string::npos);  // {"target":"/abc"}
  CHECK(body_of(r).empty());
}

TEST_CASE("http server: other methods get 405 and never reach the handler", "[serve][http]") {
  TestServer t;
  for (const char* method : {"POST", "PUT", "DELETE", "PATCH", "OPTIONS"}) {
    RawConnection c(t.port);
    c.send(std::string(method) + " / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");
    const std::string r = c.response();
    INFO(method);
    CHECK(status_line(r) == "HTTP/1.1 405 Method Not Allowed");
    CHECK(r.find("Allow: GET, HEAD\r\n") != std::string::npos);
  }
  CHECK(t.calls == 0);
}

TEST_CASE("http server: a body, a huge header or garbage is refused and the connection closed",
          "[serve][http]") {
  TestServer t;
  {
    RawConnection c(t.port);
    c.send("GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello");
    const std::string r = c.receive([](const std::string&) { return false; });
    CHECK(status_line(r) == "HTTP/1.1 413 Payload Too Large");
    CHECK(body_of(r) == "{\"error\":\"a request body is not accepted\"}\n");
    CHECK(c.closed());
  }
  {
    RawConnection c(t.port);
    c.send("GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + std::string(20000, 'x') + "\r\n\r\n");
    const std::string r = c.receive([](const std::string&) { return false; });
    CHECK(status_line(r) == "HTTP/1.1 431 Request Header Fields Too Large");
    CHECK(c.closed());
  }
  {
    RawConnection c(t.port);
    c.send("NOT HTTP AT ALL\r\n\r\n");
    const std::string r = c.receive([](const std::string&) { return false; });
    CHECK(status_line(r) == "HTTP/1.1 400 Bad Request");
    CHECK(c.closed());
  }
  CHECK(t.calls == 0);
}

TEST_CASE("http server: a handler that throws gives 500 and the server goes on", "[serve][http]") {
  TestServer t;
  RawConnection c(t.port);
  c.send("GET /throw HTTP/1.1\r\nHost: localhost\r\n\r\n");
  const std::string r = c.response();
  CHECK(status_line(r) == "HTTP/1.1 500 Internal Server Error");
  // JSON, and nothing of what the exception said (it may quote SQL).
  CHECK(r.find("Content-Type: application/json") != std::string::npos);
  CHECK(body_of(r) == "{\"error\":\"internal error (the server's log says more)\"}\n");
  RawConnection d(t.port);
  d.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n");
  CHECK(status_line(d.response()) == "HTTP/1.1 200 OK");
}

TEST_CASE("http server: a client that does not finish its request is dropped after the timeout",
          "[serve][http]") {
  ServerOptions o;
  o.header_timeout = std::chrono::milliseconds(300);
  TestServer t(o);
  RawConnection c(t.port);
  c.send("GET / HT");
  // Nothing more is sent: the server closes the connection without calling the handler.
  const std::string r = c.receive([](const std::string&) { return false; });
  CHECK(c.closed());
  CHECK(r.empty());
  CHECK(t.calls == 0);
}

TEST_CASE("http server: connections over the limit get 503", "[serve][http]") {
  ServerOptions o;
  o.max_connections = 2;
  TestServer t(o);
  RawConnection a(t.port), b(t.port);
  // Both are served (keep-alive keeps them open).
  for (RawConnection* c : {&a, &b}) {
    c->send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    CHECK(status_line(c->response()) == "HTTP/1.1 200 OK");
  }
  RawConnection extra(t.port);
  const std::string r = extra.receive([](const std::string&) { return false; });
  CHECK(status_line(r) == "HTTP/1.1 503 Service Unavailable");
}

TEST_CASE("http server: a port in use and a bad address are errors naming them", "[serve][http]") {
  TestServer t;
  ServerOptions o;
  o.port = t.port;
  auto clash = HttpServer::start(o, [](const Request&) { return std::make_shared<Response>(); });
  REQUIRE_FALSE(clash);
  CHECK(clash.error().find("cannot listen on 127.0.0.1:" + std::to_string(t.port)) !=
        std::string::npos);
  ServerOptions bad;
  bad.host = "no.such.host";
  auto b = HttpServer::start(bad, [](const Request&) { return std::make_shared<Response>(); });
  REQUIRE_FALSE(b);
  CHECK(b.error().find("cannot listen on no.such.host:8080") != std::string::npos);
}

TEST_CASE("http server: stop() with connections open returns and is idempotent", "[serve][http]") {
  TestServer t;
  RawConnection c(t.port);
  c.send("GET / HT");  // a request in progress
  t.server->stop();
  t.server->stop();
  const std::string r = c.receive([](const std::string&) { return false; });
  CHECK(r.empty());
  CHECK(c.closed());
  CHECK(t.server->address().empty());
}

TEST_CASE("http server: a Host that does not name this machine is refused (DNS rebinding)",
          "[serve][http]") {
  ServerOptions o;
  o.allowed_hosts = {"knightly.lab.example"};
  TestServer t(o);
  const auto status = [&](const std::string& host_lines) {
    RawConnection c(t.port);
    c.send("GET /api/x HTTP/1.1\r\n" + host_lines + "Connection: close\r\n\r\n");
    return c.receive([](const std::string&) { return false; });
  };
  for (const char* foreign :
       {"attacker.example", "attacker.example:" /* empty port */, "localhost.attacker.example",
        "10.1.2.3", "127.0.0.1.nip.io:80", "[::2]:80", "a b",
        // Found by fuzz_http_request: after "]" a port or nothing; in brackets only IPv6.
        "[127.0.0.1]:x/attacker", "[::1]attacker", "[127.0.0.1]"}) {
    INFO(foreign);
    const std::string r = status(std::string("Host: ") + foreign + "\r\n");
    CHECK(status_line(r) == "HTTP/1.1 403 Forbidden");
    CHECK(r.find("Content-Type: application/json") != std::string::npos);
    CHECK(body_of(r).starts_with("{\"error\":\"this server does not answer for that Host"));
    CHECK(r.find("attacker") == std::string::npos);  // nothing sent is echoed
  }
  CHECK(status_line(status("")) == "HTTP/1.1 400 Bad Request");  // no Host at all
  // Another site's page aiming at this server through the browser: refused, whatever Host.
  CHECK(status_line(status("Host: localhost\r\nSec-Fetch-Site: cross-site\r\n")) ==
        "HTTP/1.1 403 Forbidden");
  CHECK(status_line(status("Host: localhost\r\nHost: attacker.example\r\n")) ==
        "HTTP/1.1 400 Bad Request");
  CHECK(t.calls == 0);
  for (const char* mine :
       {"localhost", "LocalHost:8080", "localhost.", "app.localhost:1", "127.0.0.1", "127.0.0.1:9",
        "127.1.2.3", "[::1]:8080", "knightly.lab.example", "KNIGHTLY.lab.example:443"}) {
    INFO(mine);
    CHECK(status_line(status(std::string("Host: ") + mine + "\r\n")) == "HTTP/1.1 200 OK");
  }
  // The page's own requests and a typed address are answered.
  for (const char* site : {"same-origin", "none"})
    CHECK(status_line(status(std::string("Host: localhost\r\nSec-Fetch-Site: ") + site + "\r\n")) ==
          "HTTP/1.1 200 OK");
}

TEST_CASE("http server: one client's 256 slow connections do not lock out another",
          "[serve][http]") {
  TestServer t;  // the default limits
  // A client at 127.0.0.2 opens 256 connections and sends half a request line on each.
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 256; ++i) {
    slow.push_back(std::make_unique<RawConnection>(t.port, "127.0.0.2"));
    slow.back()->send("GET / HT");
  }
  // Those past its share were refused at once, with a reason.
  int refused = 0;
  for (auto& c : slow) {
    const std::string r =
        c->receive([](const std::string& s) { return !s.empty(); }, std::chrono::milliseconds(50));
    if (status_line(r) == "HTTP/1.1 503 Service Unavailable") ++refused;
  }
  CHECK(refused >= 256 - 16);
  // Another client (127.0.0.1) is served while they hang on.
  RawConnection other(t.port);
  other.send("GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n");
  CHECK(status_line(other.response()) == "HTTP/1.1 200 OK");
}

TEST_CASE("http server: what the request parser accepts, fed bytes directly", "[serve][http]") {
  const HostPolicy policy{"127.0.0.1", {}};
  auto ok = read_request("GET /a?b=1 HTTP/1.1\r\nHost: localhost\r\n\r\n", 8192, policy);
  REQUIRE(ok);
  CHECK(ok->request.target == "/a?b=1");
  CHECK(ok->keep_alive);
  CHECK_FALSE(ok->head);
  auto head = read_request("HEAD / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", 8192, policy);
  REQUIRE(head);
  CHECK(head->head);
  CHECK_FALSE(head->keep_alive);
  CHECK(read_request("GET / HTTP/1.1\r\nHost: x\r\n", 8192, policy).error().status == 0);
  CHECK(read_request("GET / HTTP/1.1\r\nHost: evil\r\n\r\n", 8192, policy).error().status == 403);
  CHECK(read_request("POST / HTTP/1.1\r\nHost: localhost\r\n\r\n", 8192, policy).error().status ==
        405);
  CHECK(
      read_request("GET / HTTP/1.1\r\nHost: localhost\r\nX: " + std::string(9000, 'x') + "\r\n\r\n",
                   8192, policy)
          .error()
          .status == 431);
  CHECK(read_request("\x01\x02 garbage\r\n\r\n", 8192, policy).error().status == 400);
  CHECK(error_json("a \"quoted\" \x1b") == "{\"error\":\"a \\\"quoted\\\" \\u001b\"}\n");
}

// clang-format off
#include <utility>  // Boost 1.74's Asio needs it before any of its headers
// clang-format on
#include "runner/serve/http_server.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "runner/serve/request.h"

namespace knightly::runner::serve {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

// Members in this order: sessions still queued in `ioc` when it is destroyed count down
// `connections`, which must outlive it.
struct HttpServer::Impl {
  ServerOptions options;
  HostPolicy hosts;
  Handler handler;
  std::atomic<int> connections{0};
  std::mutex clients_mutex;
  std::map<net::ip::address, int> clients;  // open connections per client address
  net::io_context ioc;
  tcp::acceptor acceptor{ioc};
  std::vector<std::thread> threads;

  void accept();
};

namespace {

std::shared_ptr<const Response> error_response(int status, std::string_view message) {
  auto r = std::make_shared<Response>();
  r->status = status;
  r->body = error_json(message);
  if (status == 405) r->headers.emplace_back("Allow", "GET, HEAD");
  return r;
}

// One connection: read a request, answer it, repeat while the client keeps it alive.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, HttpServer::Impl& server)
      : stream_(std::move(socket)), server_(server) {
    ++server_.connections;
    beast::error_code ec;
    client_ = stream_.socket().remote_endpoint(ec).address();
    std::lock_guard lock(server_.clients_mutex);
    client_connections_ = ++server_.clients[client_];
  }
  ~Session() {
    {
      std::lock_guard lock(server_.clients_mutex);
      if (--server_.clients[client_] == 0) server_.clients.erase(client_);
    }
    --server_.connections;
  }

  // This client's connections, this one included, when it was accepted.
  int client_connections() const { return client_connections_; }

  void read() {
    parser_.emplace();
    configure_parser(*parser_, server_.options.max_header_bytes);
    // The whole request header within the header timeout, however slowly it trickles in.
    stream_.expires_after(server_.options.header_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::on_read, shared_from_this()));
  }

  // Answers an error found before the request was whole, then closes.
  void refuse(int status, std::string_view message) {
    write(error_response(status, message), false, false);
  }

 private:
  void on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == net::error::operation_aborted || ec == net::error::connection_reset ||
        ec == net::error::eof) {
      close();
      return;
    }
    auto examined = examine_request(ec, *parser_, server_.hosts);
    if (!examined) {
      const Refusal& r = examined.error();
      return write(error_response(r.status, r.message), r.keep_alive, r.head);
    }
    std::shared_ptr<const Response> r;
    try {
      r = server_.handler(examined->request);
      if (!r) r = error_response(500, "internal error: no answer");
    } catch (const std::exception& e) {
      // The detail (it may quote SQL or a path) is for the operator, not the client.
      std::fprintf(stderr, "knightly serve: %s\n", e.what());
      r = error_response(500, "internal error (the server's log says more)");
    } catch (...) {
      r = error_response(500, "internal error");
    }
    write(r, examined->keep_alive, examined->head);
  }

  // The body is sent from the shared Response itself, never copied: the answer stays alive
  // until the write is done.
  void write(std::shared_ptr<const Response> r, bool keep_alive, bool head) {
    auto res = std::make_shared<http::response<http::buffer_body>>();
    res->version(11);
    res->result(static_cast<unsigned>(r->status));
    res->set(http::field::server, "knightly");
    res->set(http::field::content_type, r->content_type);
    res->set(http::field::cache_control, "no-store");
    res->set("X-Content-Type-Options", "nosniff");
    for (const auto& [name, value] : r->headers) res->set(name, value);
    res->keep_alive(keep_alive);
    // Content-Length is the GET body's size, for a HEAD too.
    res->content_length(r->body.size());
    res->body().data = head ? nullptr : const_cast<char*>(r->body.data());
    res->body().size = head ? 0 : r->body.size();
    res->body().more = false;
    stream_.expires_after(server_.options.timeout);
    http::async_write(
        stream_, *res,
        [self = shared_from_this(), res, r, keep_alive](beast::error_code ec, std::size_t) {
          if (ec || !keep_alive) return self->close();
          self->read();
        });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<RequestParser> parser_;
  HttpServer::Impl& server_;
  net::ip::address client_;
  int client_connections_ = 0;
};

}  // namespace

void HttpServer::Impl::accept() {
  acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted) return;  // stopping
    if (!ec) {
      auto session = std::make_shared<Session>(std::move(socket), *this);
      // One client's connections (slow ones, or many) never take all: each address has its
      // share, and past it only that client is refused.
      if (session->client_connections() > options.max_connections_per_client)
        session->refuse(503, "too many connections from this client");
      else if (connections.load() > options.max_connections)
        session->refuse(503, "too many connections");
      else
        session->read();
    }
    accept();
  });
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpServer::~HttpServer() {
  stop();
}

std::expected<std::unique_ptr<HttpServer>, std::string> HttpServer::start(
    const ServerOptions& options, Handler handler) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->hosts = HostPolicy{options.host, options.allowed_hosts};
  impl->handler = std::move(handler);
  const bool v6 = options.host.find(':') != std::string::npos;
  const std::string where =
      (v6 ? "[" + options.host + "]" : options.host) + ":" + std::to_string(options.port);
  beast::error_code ec;
  const auto address = net::ip::make_address(options.host, ec);
  if (ec) return std::unexpected("cannot listen on " + where + ": " + ec.message());
  const tcp::endpoint endpoint(address, static_cast<unsigned short>(options.port));
  auto& a = impl->acceptor;
  a.open(endpoint.protocol(), ec);
  if (!ec) a.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) a.bind(endpoint, ec);
  if (!ec) a.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return std::unexpected("cannot listen on " + where + ": " + ec.message());
  impl->accept();
  Impl* raw = impl.get();
  for (int i = 0; i < std::max(1, options.threads); ++i) {
    impl->threads.emplace_back([raw] {
      // No exception leaves the thread: a failing handler is answered with a 500 inside the
      // session; anything else is logged and the loop goes on.
      while (!raw->ioc.stopped()) {
        try {
          raw->ioc.run();
        } catch (const std::exception& e) {
          std::fprintf(stderr, "knightly serve: %s\n", e.what());
        } catch (...) {
          std::fprintf(stderr, "knightly serve: unknown error in a connection\n");
        }
      }
    });
  }
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

std::string HttpServer::address() const {
  if (!impl_) return "";
  beast::error_code ec;
  const auto ep = impl_->acceptor.local_endpoint(ec);
  if (ec) return "?";
  const std::string host = ep.address().to_string();
  return (ep.address().is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(ep.port());
}

void HttpServer::stop() {
  if (!impl_) return;
  impl_->ioc.stop();
  for (auto& t : impl_->threads)
    if (t.joinable()) t.join();
  // Destroying the io_context drops every queued operation, and with it every session: their
  // sockets close now, not when this object goes.
  impl_.reset();
}

}  // namespace knightly::runner::serve

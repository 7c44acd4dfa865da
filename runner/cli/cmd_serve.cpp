// knightly serve: the report page, live, and its JSON API over a read-only connection to the
// database. Loopback by default; Ctrl-C (or SIGTERM) stops it.
#include <pthread.h>
#include <signal.h>

#include <iostream>

#include "db/store/store.h"
#include "runner/cli/subcommand.h"
#include "runner/output/printable.h"
#include "runner/run/run_options.h"
#include "runner/serve/api.h"
#include "runner/serve/endpoint.h"
#include "runner/serve/http_server.h"
#include "runner/serve/tests_site.h"

namespace knightly::runner {

namespace {

struct ServeArgs {
  std::string db = "knightly.db";
  std::string bind = "127.0.0.1:8080";
  int threads = 2;
  std::vector<std::string> allowed_hosts;
  ServeApiOptions api;
};

std::expected<ServeArgs, std::string> parse_serve_args(Args& args) {
  ServeArgs s;
  while (!args.empty()) {
    const std::string a = args.take();
    auto v = args.value(a);
    if (!v) return std::unexpected(v.error());
    if (a == "--db") {
      s.db = *v;
    } else if (a == "--bind") {
      s.bind = *v;
    } else if (a == "--tournament") {
      s.api.filter.tournaments.push_back(*v);
    } else if (a == "--title") {
      s.api.title = *v;
    } else if (a == "--allow-host") {
      // A name this server answers for besides the machine's own (a reverse proxy's, a name
      // in DNS for it): the Host check refuses every other (DNS rebinding).
      if (v->empty() || v->find_first_of(" \t/@") != std::string::npos)
        return std::unexpected("--allow-host: '" + printable(*v) + "' is not a host name");
      s.allowed_hosts.push_back(*v);
    } else if (a == "--cache-mb") {
      auto n = parse_int(a, *v, 1, 65536);
      if (!n) return std::unexpected(n.error());
      s.api.cache_bytes = static_cast<std::size_t>(*n) << 20;
    } else if (a == "--threads") {
      auto n = parse_int(a, *v, 1, 64);
      if (!n) return std::unexpected(n.error());
      s.threads = static_cast<int>(*n);
    } else {
      return std::unexpected("unknown option '" + printable(a) + "'");
    }
  }
  return s;
}

bool loopback(const std::string& host) {
  return host.starts_with("127.") || host == "::1";
}

}  // namespace

int cmd_serve(Args& args) {
  auto s = parse_serve_args(args);
  if (!s) {
    std::cerr << "knightly: serve: " << s.error() << "\n";
    return ExitError;
  }
  auto endpoint = serve::parse_endpoint(s->bind);
  if (!endpoint) {
    std::cerr << "knightly: serve: --bind " << endpoint.error() << "\n";
    return ExitError;
  }
  db::StoreOptions so;
  so.mode = db::OpenMode::ReadOnly;
  auto store = db::Store::open(s->db, so);
  if (!store) {
    std::cerr << "knightly: serve: " << store.error().message << "\n";
    return ExitError;
  }
  for (const auto& name : s->api.filter.tournaments)
    if (!store->catalog().find_tournament(name)) {
      std::cerr << "knightly: serve: no tournament '" << printable(name) << "' in " << store->path()
                << "\n";
      return ExitError;
    }

  // SIGINT and SIGTERM are taken by sigwait below: blocked here, before any thread starts, so
  // every thread inherits the mask and none is interrupted.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  // The --cache-mb bound holds for both: half for the page and API, half for the tests' own.
  ServeApiOptions api_options = s->api;
  api_options.cache_bytes = s->api.cache_bytes / 2;
  ServeApi api(*store, api_options);
  TestsSite tests(*store, s->api.title, s->api.cache_bytes / 2);  // /tests: the test queue
  serve::ServerOptions options;
  options.host = endpoint->host;
  options.port = endpoint->port;
  options.threads = s->threads;
  options.allowed_hosts = s->allowed_hosts;
  auto server = serve::HttpServer::start(options, [&api, &tests](const serve::Request& request) {
    if (auto answer = tests.handle(request)) return answer;
    return api.handle(request);
  });
  if (!server) {
    std::cerr << "knightly: serve: " << server.error() << "\n";
    return ExitError;
  }
  if (!loopback(endpoint->host))
    std::cerr << "knightly: serve: warning: listening on " << endpoint->host
              << ", not a loopback address: whoever reaches it can read the whole database\n";
  std::cout << "knightly: serve: http://" << (*server)->address() << "/ (database " << store->path()
            << ", read-only); Ctrl-C stops" << std::endl;
  if (s->api.filter.tournaments.empty() && !store->test_queue().tests().empty())
    std::cout << "knightly: serve: the test queue: http://" << (*server)->address() << "/tests"
              << std::endl;
  int signal = 0;
  sigwait(&stop_signals, &signal);
  (*server)->stop();
  std::cout << "knightly: serve: stopped" << std::endl;
  return ExitOk;
}

}  // namespace knightly::runner

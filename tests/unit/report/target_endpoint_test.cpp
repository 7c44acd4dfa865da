// serve's parsing: request targets and --bind addresses.
#include <catch2/catch.hpp>

#include "runner/serve/endpoint.h"
#include "runner/serve/target.h"

using namespace knightly::runner::serve;

TEST_CASE("parse_target: path and decoded parameters", "[serve][target]") {
  auto t = parse_target("/api/games?engine=a%20b&result=1%2F2-1%2F2&x=&flag&e=%3Cscript%3E+1");
  REQUIRE(t);
  CHECK(t->path == "/api/games");
  REQUIRE(t->params.size() == 5);
  CHECK(*t->param("engine") == "a b");
  CHECK(*t->param("result") == "1/2-1/2");
  CHECK(*t->param("x") == "");
  CHECK(*t->param("flag") == "");
  CHECK(*t->param("e") == "<script> 1");
  CHECK(t->param("missing") == nullptr);
  auto plain = parse_target("/");
  REQUIRE(plain);
  CHECK(plain->path == "/");
  CHECK(plain->params.empty());
  auto path = parse_target("/api/game/12%2F3?#frag");
  REQUIRE(path);
  CHECK(path->path == "/api/game/12/3");
}

TEST_CASE("parse_target: malformed targets are errors naming them", "[serve][target]") {
  CHECK_FALSE(parse_target(""));
  CHECK(parse_target("http://x/").error().find("does not start with '/'") != std::string::npos);
  CHECK(parse_target("/a%2").error().find("bad percent escape in '/a%2'") != std::string::npos);
  CHECK_FALSE(parse_target("/a%zz"));
  CHECK(parse_target("/a?k=%00").error().find("NUL") != std::string::npos);
}

TEST_CASE("parse_endpoint: literal addresses and ports", "[serve][endpoint]") {
  auto a = parse_endpoint("127.0.0.1:8080");
  REQUIRE(a);
  CHECK(a->host == "127.0.0.1");
  CHECK(a->port == 8080);
  auto b = parse_endpoint("[::1]:0");
  REQUIRE(b);
  CHECK(b->host == "::1");
  CHECK(b->port == 0);
  CHECK(parse_endpoint("0.0.0.0:65535"));
  CHECK(parse_endpoint("localhost:8080").error().find("not an IPv4 address") != std::string::npos);
  CHECK(parse_endpoint("127.0.0.1").error().find("ADDRESS:PORT") != std::string::npos);
  CHECK(parse_endpoint("127.0.0.1:70000")
            .error()
            .find("port: '70000' is not an integer in [0, 65535]") != std::string::npos);
  CHECK_FALSE(parse_endpoint("127.0.0.1:"));
  CHECK_FALSE(parse_endpoint("127.0.0.1:80x"));
  CHECK_FALSE(parse_endpoint("[::1]8080"));
  CHECK_FALSE(parse_endpoint("[nope]:1"));
}

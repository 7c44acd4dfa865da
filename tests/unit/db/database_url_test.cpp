// Database locations: PostgreSQL URLs recognised, env: and file: resolved, and a password never
// shown or stored, in any form libpq accepts.
#include "db/store/database_url.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "db/store/store_error.h"

using namespace knightly::db;

TEST_CASE("PostgreSQL URLs are told from file paths") {
  CHECK(is_postgres_url("postgresql://u@h/db"));
  CHECK(is_postgres_url("postgres://h/db"));
  CHECK(is_postgres_url("PostgreSQL://h/db"));
  CHECK_FALSE(is_postgres_url("knightly.db"));
  CHECK_FALSE(is_postgres_url("./postgresql://x"));
  CHECK_FALSE(is_postgres_url("postgresql:/x"));
  CHECK_FALSE(is_postgres_url(""));
}

TEST_CASE("a URL is shown without its password") {
  CHECK(location_text("postgresql://alice:s3cret@db.lab:5433/knightly") ==
        "postgresql://alice:***@db.lab:5433/knightly");
  CHECK(location_text("postgres://alice@db.lab/knightly") == "postgres://alice@db.lab/knightly");
  CHECK(location_text("postgresql://db.lab/knightly?sslmode=require&password=hunter2&x=1") ==
        "postgresql://db.lab/knightly?sslmode=require&password=***&x=1");
  CHECK(location_text("postgresql://a:p%40ss@h/d?password=q") ==
        "postgresql://a:***@h/d?password=***");
  // An empty password is still redacted as present.
  CHECK(location_text("postgresql://a:@h/d") == "postgresql://a:***@h/d");
  CHECK(location_text("knightly.db") == "knightly.db");
}

TEST_CASE("a password holding a raw @ is masked whole, and given to libpq as %40") {
  // libpq ends the user info at the first '@': the rest of the password would be the host.
  CHECK(location_text("postgresql://alice:p@ss@db.lab/k") == "postgresql://alice:***@db.lab/k");
  CHECK(location_text("postgresql://alice:a@b@c@db.lab:5/k?x=1") ==
        "postgresql://alice:***@db.lab:5/k?x=1");
  CHECK(libpq_url("postgresql://alice:p@ss@db.lab/k") == "postgresql://alice:p%40ss@db.lab/k");
  CHECK(libpq_url("postgresql://alice:pw@db.lab/k@x") == "postgresql://alice:pw@db.lab/k@x");
  CHECK(libpq_url("postgresql://db.lab/k") == "postgresql://db.lab/k");
  const auto s = url_secrets("postgresql://alice:p@ss@db.lab/k");
  CHECK(std::find(s.begin(), s.end(), "p@ss") != s.end());
  CHECK(std::find(s.begin(), s.end(), "p%40ss") != s.end());
  // A raw '/' or '?' in the password: masked up to the last '@' all the same.
  CHECK(location_text("postgresql://alice:p/s?s@db.lab/k") == "postgresql://alice:***@db.lab/k");
}

TEST_CASE("password parameters are masked whatever their key's encoding") {
  // libpq percent-decodes parameter keys: pass%77ord is password.
  CHECK(location_text("postgresql://h/d?pass%77ord=zz&sslmode=require") ==
        "postgresql://h/d?pass%77ord=***&sslmode=require");
  CHECK(location_text("postgresql://h/d?password=a&password=b") ==
        "postgresql://h/d?password=***&password=***");
  CHECK(location_text("postgresql://h/d?passwords=x") == "postgresql://h/d?passwords=x");
}

TEST_CASE("libpq key=value strings are masked, quoted values too") {
  CHECK(location_text("host=db.lab password=hunter2 dbname=k") ==
        "host=db.lab password=*** dbname=k");
  CHECK(location_text("host=db.lab password = 'a b\\' c' user=u") ==
        "host=db.lab password = *** user=u");
  const auto s = url_secrets("host=h password='a b\\' c'");
  CHECK(std::find(s.begin(), s.end(), "a b' c") != s.end());
  CHECK(location_text("/tmp/password=x.db") == "/tmp/password=x.db");
  CHECK(redact_urls_in_text("database = \"host=h password=s3 dbname=k\"\n") ==
        "database = \"host=h password=*** dbname=k\"\n");
}

TEST_CASE("passwords are blanked in place, as long as they were") {
  char arg[] = "--db=postgresql://u:p@ss@h/d?password=xy";
  blank_passwords(arg);
  CHECK(std::string(arg) == "--db=postgresql://u:****@h/d?password=**");
  char plain[] = "knightly.db";
  blank_passwords(plain);
  CHECK(std::string(plain) == "knightly.db");
}

TEST_CASE("env:NAME and file:PATH give the location they hold") {
  ::setenv("KNIGHTLY_TEST_LOCATION", "postgresql://u:pw@h/d", 1);
  CHECK(resolve_location("env:KNIGHTLY_TEST_LOCATION").value() == "postgresql://u:pw@h/d");
  ::unsetenv("KNIGHTLY_TEST_LOCATION");
  const auto unset = resolve_location("env:KNIGHTLY_TEST_LOCATION");
  REQUIRE_FALSE(unset);
  CHECK(unset.error() == "the environment variable KNIGHTLY_TEST_LOCATION is not set");
  CHECK(resolve_location("knightly.db").value() == "knightly.db");

  const std::string path = "/tmp/knightly-location-test-" + std::to_string(::getpid());
  {
    std::ofstream out(path);
    out << "postgresql://u:pw@h/d  \nsecond line\n";
  }
  CHECK(resolve_location("file:" + path).value() == "postgresql://u:pw@h/d");
  {
    std::ofstream out(path);
    out << std::string(5000, 'x');
  }
  const auto long_line = resolve_location("file:" + path);
  REQUIRE_FALSE(long_line);
  CHECK(long_line.error().find("longer than 4096 bytes") != std::string::npos);
  std::remove(path.c_str());
  const auto missing = resolve_location("file:" + path);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().find("No such file or directory") != std::string::npos);
}

TEST_CASE("passwords of URLs inside text are replaced") {
  const std::string config =
      "[output]\ndatabase = \"postgresql://bob:pa55@10.0.0.2:5432/gauntlet\"\n"
      "# also postgres://carol:xyz@h/d and a path /tmp/k.db\n";
  const std::string out = redact_urls_in_text(config);
  CHECK(out.find("pa55") == std::string::npos);
  CHECK(out.find("xyz@") == std::string::npos);
  CHECK(out.find("postgresql://bob:***@10.0.0.2:5432/gauntlet\"") != std::string::npos);
  CHECK(out.find("postgres://carol:***@h/d and a path /tmp/k.db") != std::string::npos);
  CHECK(redact_urls_in_text("no urls here") == "no urls here");
}

TEST_CASE("the secrets of a URL include their percent-decoded form") {
  const auto s = url_secrets("postgresql://a:p%40ss@h/d?password=two");
  REQUIRE(s.size() == 3);
  CHECK(s[0] == "p%40ss");
  CHECK(s[1] == "p@ss");
  CHECK(s[2] == "two");
  CHECK(url_secrets("postgresql://a@h/d").empty());
}

TEST_CASE("PostgreSQL failures are classified by SQLSTATE") {
  const std::string db = "postgresql://u:***@h/d";
  CHECK(postgres_error(db, "23505", "duplicate key", "x").kind == ErrorKind::Conflict);
  CHECK(postgres_error(db, "40P01", "deadlock detected", "x").kind == ErrorKind::Locked);
  CHECK(postgres_error(db, "40P01", "deadlock detected", "x").transient);
  CHECK(postgres_error(db, "55P03", "lock timeout", "x").kind == ErrorKind::Locked);
  CHECK(postgres_error(db, "53100", "could not extend file", "x").kind == ErrorKind::DiskFull);
  CHECK(postgres_error(db, "08006", "connection failure", "x").kind == ErrorKind::Unavailable);
  CHECK(postgres_error(db, "", "server closed the connection", "x").kind == ErrorKind::Unavailable);
  CHECK(postgres_error(db, "57P01", "terminating connection", "x").kind == ErrorKind::Unavailable);
  CHECK(postgres_error(db, "25006", "read-only transaction", "x").kind == ErrorKind::ReadOnly);
  CHECK(postgres_error(db, "XX001", "invalid page", "x").kind == ErrorKind::Corrupt);
  CHECK(postgres_error(db, "58030", "could not write", "x").kind == ErrorKind::Io);
  const auto e = postgres_error(db, "53100", "could not extend file", "storing game (round 1)");
  CHECK(e.message ==
        "database postgresql://u:***@h/d: disk full while storing game (round 1) (could not "
        "extend file)");
}

TEST_CASE("found by fuzz_db_location: passwords wherever libpq would find them") {
  // A URL argument holding a blank is one argument: blanked to its end.
  char spaced[] = "postgresql://user:a b@db.example/k";
  blank_passwords(spaced);
  CHECK(std::string(spaced) == "postgresql://user:***@db.example/k");
  // A password= value that holds a URL, in a config.
  CHECK(redact_urls_in_text("database = \"password=postgresql://po:x@h\"\n").find("po:x") ==
        std::string::npos);
  // A password parameter after a raw '@' in the query (libpq reads the query where the user
  // info ended, at the first '@').
  CHECK(location_text("postgresql://a:p@h1/d?s=@r&password=two").find("two") == std::string::npos);
  // libpq skips newlines around '=' in key=value strings.
  CHECK(location_text("password = \n\nsecret host=h").find("secret") == std::string::npos);
  // The password repeated elsewhere in the text is masked there too.
  const std::string twice = "password=hunter22 host=h application_name=hunter22";
  CHECK(location_text(twice).find("hunter22") == std::string::npos);
  std::string copy = twice;
  blank_passwords(copy.data());
  CHECK(copy.find("hunter22") == std::string::npos);
  CHECK(copy.size() == twice.size());
}

TEST_CASE("found by fuzz_db_location: a config hides every form of a password libpq is given") {
  // A raw '@' in the user info is given to libpq as %40 (libpq_url), and its messages may
  // quote that form: url_secrets knows it, and location_text scrubs it wherever it is repeated.
  // A config naming the location hides it the same (it showed the %40 form repeated in the
  // query), and so does a program argument holding the URL after --db=.
  const std::string simple = "postgresql://u:x@yz@h/d?application_name=x%40yz";
  CHECK(location_text(simple).find("x%40yz") == std::string::npos);
  CHECK(redact_urls_in_text("database = \"" + simple + "\"\n").find("x%40yz") ==
        std::string::npos);
  std::string arg = "--db=" + simple;
  blank_passwords(arg.data());
  CHECK(arg.find("x%40yz") == std::string::npos);
  CHECK(arg.size() == simple.size() + 5);
  // The two inputs fuzz_db_location found: `password=@s%4zz` inside the user info is given to
  // libpq as `password=%40s%4zz`, and the %40 form is written again further on.
  for (const std::string url :
       {"postgresql://a:p%40s2=zz&password=@s%4zz&password=@dlihpass%77ord=fq&rr?????????"
        "%40s%4zzrrrrrrrrrrrword=twg",
        "postgresql://a:p%40s2=zz&password=@dlbss%4zz&password=@dlihpass%54ord=fq&rr??env:"
        "??????p%40s2=zz&pafile:d=%40dlbss%4zz&pa%2Ford=??????rrrrrrrrrrrw=o"}) {
    const std::string config = "database = \"" + url + "\"\n";
    const std::string shown = redact_urls_in_text(config);
    for (const std::string& secret : url_secrets(url))
      if (secret.size() >= 3) CHECK(shown.find(secret) == std::string::npos);
  }
}

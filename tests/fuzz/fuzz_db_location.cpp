// Database locations as users give them (--db, [output] database): file paths, PostgreSQL
// URLs in every form libpq accepts, key=value strings, any text. The one text for people
// (location_text) never shows a password; text with locations in it (a config before it is
// stored) neither; blanking passwords in place keeps the length and leaves nothing to see; and
// the URL handed to libpq, as libpq itself parses it, has a password the scrub of libpq's
// messages knows (url_secrets), so no libpq error can quote one.
#include <libpq-fe.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "db/store/database_url.h"
#include "tests/fuzz/fuzz_check.h"

using namespace knightly;

namespace {

// The passwords libpq reads from `conninfo` (a URL or key=value string), or none when it
// cannot parse it.
std::vector<std::string> libpq_passwords(const std::string& conninfo) {
  std::vector<std::string> out;
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
  if (error) PQfreemem(error);
  if (!options) return out;
  for (PQconninfoOption* o = options; o->keyword; ++o)
    if (std::string_view(o->keyword) == "password" && o->val && *o->val) out.push_back(o->val);
  PQconninfoFree(options);
  return out;
}

// Whether `secret` is a password the text shows only as a password: long enough not to be
// taken for one by chance, found exactly once in `text`, and nowhere in the rest of it.
bool distinctive(const std::string& secret, const std::string& text) {
  if (secret.size() < 3 || secret.find('*') != std::string::npos) return false;
  const auto at = text.find(secret);
  if (at == std::string::npos || text.find(secret, at + 1) != std::string::npos) return false;
  std::string rest = text;
  rest.erase(at, secret.size());
  return rest.find(secret) == std::string::npos;
}

void check_hidden(const std::string& text, const std::vector<std::string>& secrets) {
  const std::string shown = db::location_text(text);
  std::string blanked = text;
  db::blank_passwords(blanked.data());
  fuzz::check(blanked.size() == text.size(), "blanking keeps the length", text);
  // In a config (TOML) the location is quoted: what a stored config shows.
  const bool quotable = text.find_first_of("\"\\\n") == std::string::npos;
  const std::string config = "database = \"" + text + "\"\n";
  for (const std::string& s : secrets) {
    if (!distinctive(s, text)) continue;
    fuzz::check(shown.find(s) == std::string::npos, "location_text shows no password",
                text + "\n" + shown);
    fuzz::check(blanked.find(s) == std::string::npos, "blanking leaves no password",
                text + "\n" + blanked);
    if (quotable && distinctive(s, config))
      fuzz::check(db::redact_urls_in_text(config).find(s) == std::string::npos,
                  "a config naming the location shows no password", config);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find('\0') != std::string::npos) return 0;  // a C string to libpq and in argv
  const std::vector<std::string> secrets = db::url_secrets(text);
  check_hidden(text, secrets);
  // What libpq will use as the password is never shown, and the scrub of its messages knows it.
  const std::string given = db::is_postgres_url(text) ? db::libpq_url(text) : text;
  const std::vector<std::string> used = libpq_passwords(given);
  for (const std::string& p : used) {
    bool known = false;
    for (const std::string& s : secrets) known = known || s == p;
    fuzz::check(known, "libpq's password is among url_secrets", text + "\n" + p);
  }
  check_hidden(text, used);
  // The same bytes as the password of a URL built around them.
  const std::string url = "postgresql://user:" + text + "@db.example:5432/knightly";
  check_hidden(url, {text});
  return 0;
}

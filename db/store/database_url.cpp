#include "db/store/database_url.h"

#include <fcntl.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "db/store/libpq_lazy.h"

namespace knightly::db {

namespace {

constexpr std::string_view kSchemes[] = {"postgresql://", "postgres://"};

std::size_t scheme_length(std::string_view text) {
  for (std::string_view s : kSchemes)
    if (text.size() >= s.size()) {
      bool same = true;
      for (std::size_t i = 0; i < s.size() && same; ++i)
        same = std::tolower(static_cast<unsigned char>(text[i])) == s[i];
      if (same) return s.size();
    }
  return 0;
}

struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;  // begin == end: an empty password (still shown as ***)
};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = hex_value(s[i + 1]);
      const int lo = hex_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

// Where the passwords of one URL are. The user info ends at the last '@' of the URL: libpq
// ends it at the first '@' before the path, but a password may hold a raw '@' (or even a
// '/' or a '?'), and a host never holds one, so everything up to the last '@' is taken as
// user info - at worst a little too much is masked. Then the value of every password=
// parameter (libpq percent-decodes their keys), wherever a '?' or '&' starts one: the query
// is not looked for where libpq finds it, which a raw '?' or '@' could move.
std::vector<Span> url_password_spans(std::string_view url) {
  std::vector<Span> out;
  const std::size_t start = scheme_length(url);
  if (start == 0) return out;
  const std::size_t at = url.rfind('@');
  if (at != std::string_view::npos && at >= start) {
    const std::size_t colon = url.substr(start, at - start).find(':');
    if (colon != std::string_view::npos) out.push_back({start + colon + 1, at});
  }
  for (std::size_t q = url.find_first_of("?&", start); q != std::string_view::npos;
       q = url.find_first_of("?&", q + 1)) {
    std::size_t amp = url.find('&', q + 1);
    if (amp == std::string_view::npos) amp = url.size();
    const std::string_view param = url.substr(q + 1, amp - q - 1);
    const std::size_t eq = param.find('=');
    if (eq != std::string_view::npos && percent_decode(param.substr(0, eq)) == "password")
      out.push_back({q + 1 + eq + 1, amp});
  }
  return out;
}

bool blank(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// The value of a libpq key=value pair starting at `i` (after the '=' and any blanks): a
// quoted value ('...', with \' and \\) or one word (with \ escapes). Returns where it ends,
// and the value as libpq reads it in *decoded.
std::size_t conninfo_value_end(std::string_view text, std::size_t i, std::string* decoded) {
  if (i < text.size() && text[i] == '\'') {
    for (++i; i < text.size(); ++i) {
      if (text[i] == '\\' && i + 1 < text.size()) {
        if (decoded) *decoded += text[i + 1];
        ++i;
      } else if (text[i] == '\'') {
        return i + 1;
      } else if (decoded) {
        *decoded += text[i];
      }
    }
    return text.size();
  }
  for (; i < text.size() && !blank(text[i]); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) ++i;
    if (decoded) *decoded += text[i];
  }
  return i;
}

// The password values of libpq key=value strings in `text`: `password` as a word of its own
// (at the start, or after a blank or a quote), then '=' (blanks around it allowed).
std::vector<Span> conninfo_password_spans(std::string_view text,
                                          std::vector<std::string>* decoded = nullptr) {
  std::vector<Span> out;
  constexpr std::string_view key = "password";
  for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    if (at > 0) {
      const char before = text[at - 1];
      if (!blank(before) && before != '"' && before != '\'' && before != '`') continue;
    }
    // Blanks around '=' as libpq skips them (newlines too).
    std::size_t i = at + key.size();
    while (i < text.size() && blank(text[i])) ++i;
    if (i >= text.size() || text[i] != '=') continue;
    ++i;
    while (i < text.size() && blank(text[i])) ++i;
    std::string value;
    const std::size_t end = conninfo_value_end(text, i, decoded ? &value : nullptr);
    out.push_back({i, end});
    if (decoded) decoded->push_back(std::move(value));
    at = end > at ? end - 1 : at;
  }
  return out;
}

// Sorted, overlaps joined: what mask() takes.
std::vector<Span> merged(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.begin < b.begin; });
  std::vector<Span> out;
  for (const Span& s : spans) {
    if (!out.empty() && s.begin < out.back().end) {
      out.back().end = std::max(out.back().end, s.end);
      continue;
    }
    out.push_back(s);
  }
  return out;
}

// A location's passwords: a URL's, and any password=VALUE in it (libpq's key=value strings;
// in a URL too, where masking more than needed costs nothing).
std::vector<Span> password_spans(std::string_view location) {
  std::vector<Span> out = conninfo_password_spans(location);
  if (scheme_length(location))
    for (const Span& s : url_password_spans(location)) out.push_back(s);
  return merged(std::move(out));
}

std::string mask(std::string_view text, const std::vector<Span>& spans) {
  std::string out;
  std::size_t at = 0;
  for (const Span& s : spans) {
    if (s.begin < at) continue;
    out.append(text.substr(at, s.begin - at));
    out += "***";
    at = s.end;
  }
  out.append(text.substr(at));
  return out;
}

bool url_end(char c) {
  return blank(c) || c == '"' || c == '\'' || c == '`';
}

// What location_text scrubs wherever it is repeated besides the text of the password spans:
// the location's url_secrets (the forms libpq is given, reads and may quote: a raw '@' given
// as %40, percent-decoded, key=value unquoted) long enough to be told from ordinary text.
std::vector<std::string> secrets_of_location(std::string_view location) {
  std::vector<std::string> out;
  for (std::string& s : url_secrets(location))
    if (s.size() >= 3) out.push_back(std::move(s));
  return out;
}

// Every password in `text`: each URL's (a URL runs up to a blank or a quote; with
// `one_word`, as in a program argument, to the end), then the key=value ones in the text
// between URLs. In *secrets, every form of them that location_text scrubs wherever it is
// repeated (each URL's url_secrets, key=value values as libpq reads them), so that text naming
// a location hides no less than location_text does.
std::vector<Span> text_password_spans(std::string_view text, bool one_word = false,
                                      std::vector<std::string>* secrets = nullptr) {
  // password=VALUE anywhere (its value may hold a URL, or be in one), then each URL's.
  std::vector<std::string> decoded;
  std::vector<Span> out = conninfo_password_spans(text, &decoded);
  if (secrets)
    for (std::string& s : decoded)
      if (s.size() >= 3) secrets->push_back(std::move(s));
  std::size_t i = 0;
  while (i < text.size()) {
    if ((text[i] == 'p' || text[i] == 'P') && scheme_length(text.substr(i))) {
      // Quoted (TOML, a shell word), the URL runs to the closing quote; else to a blank.
      const char quote = i > 0 && (text[i - 1] == '"' || text[i - 1] == '\'') ? text[i - 1] : 0;
      std::size_t end = one_word ? text.size() : i;
      while (end < text.size() &&
             (quote ? text[end] != quote && text[end] != '\n' : !url_end(text[end])))
        ++end;
      const std::string_view url = text.substr(i, end - i);
      for (const Span& s : url_password_spans(url)) out.push_back({i + s.begin, i + s.end});
      if (secrets)
        for (std::string& s : secrets_of_location(url)) secrets->push_back(std::move(s));
      i = std::max(end, i + 1);
    } else {
      ++i;
    }
  }
  return merged(std::move(out));
}

// Every passwords' text, as written and decoded, that is long enough to be told from
// ordinary text (3 bytes): what is also taken out wherever else it is repeated.
std::vector<std::string> repeated_secrets(std::string_view text, const std::vector<Span>& spans) {
  std::vector<std::string> out;
  for (const Span& sp : spans) {
    const std::string raw(text.substr(sp.begin, sp.end - sp.begin));
    for (std::string s : {raw, percent_decode(raw)})
      if (s.size() >= 3) out.push_back(std::move(s));
  }
  return out;
}

// Each occurrence of each secret replaced by ***.
std::string scrubbed(std::string text, const std::vector<std::string>& secrets) {
  for (const std::string& secret : secrets)
    for (std::size_t at = text.find(secret); at != std::string::npos;
         at = text.find(secret, at + 3))
      text.replace(at, secret.size(), "***");
  return text;
}

}  // namespace

bool is_postgres_url(std::string_view target) {
  return scheme_length(target) != 0;
}

std::string location_text(std::string_view location) {
  const auto spans = password_spans(location);
  std::vector<std::string> secrets = repeated_secrets(location, spans);
  for (std::string& s : secrets_of_location(location)) secrets.push_back(std::move(s));
  return scrubbed(mask(location, spans), secrets);
}

std::string redact_urls_in_text(std::string_view text) {
  std::vector<std::string> secrets;
  const auto spans = text_password_spans(text, false, &secrets);
  for (std::string& s : repeated_secrets(text, spans)) secrets.push_back(std::move(s));
  return scrubbed(mask(text, spans), secrets);
}

void blank_passwords(char* text) {
  const std::string original(text);  // what the spans and secrets are found in
  // The argument as a location (--db's value) and as text holding one (--db=URL); a password
  // repeated elsewhere in it goes too.
  std::vector<std::string> secrets;
  std::vector<Span> all;
  for (const auto& spans :
       {password_spans(original), text_password_spans(original, true, &secrets)}) {
    all.insert(all.end(), spans.begin(), spans.end());
    for (std::string& s : repeated_secrets(original, spans)) secrets.push_back(std::move(s));
  }
  for (std::string& s : secrets_of_location(original)) secrets.push_back(std::move(s));
  for (const std::string& secret : secrets)
    for (std::size_t at = original.find(secret); at != std::string::npos;
         at = original.find(secret, at + 1))
      all.push_back({at, at + secret.size()});
  for (const Span& sp : all)
    for (std::size_t i = sp.begin; i < sp.end; ++i) text[i] = '*';
}

std::vector<std::string> url_secrets(std::string_view location) {
  std::vector<std::string> out;
  const auto add = [&](std::string s) {
    if (s.empty()) return;
    for (const auto& o : out)
      if (o == s) return;
    out.push_back(std::move(s));
  };
  const bool url = scheme_length(location) != 0;
  // The URL as written and as libpq is given it (a raw '@' written %40).
  const std::string given = url ? libpq_url(location) : std::string(location);
  if (url) {
    for (const std::string_view u : {location, std::string_view(given)})
      for (const Span& s : url_password_spans(u)) {
        const std::string raw(u.substr(s.begin, s.end - s.begin));
        add(raw);
        add(percent_decode(raw));
      }
  }
  std::vector<std::string> decoded;
  const auto spans = conninfo_password_spans(location, &decoded);
  for (std::size_t k = 0; k < spans.size(); ++k) {
    add(std::string(location.substr(spans[k].begin, spans[k].end - spans[k].begin)));
    add(decoded[k]);
  }
  // And the password as libpq itself reads it, whatever the form: that is what its messages
  // could quote.
  // (Without libpq there is no connection either, so nothing that could quote it.)
  if ((url || !out.empty()) && given.find('\0') == std::string::npos && !libpq_missing()) {
    char* error = nullptr;
    if (PQconninfoOption* options = PQconninfoParse(given.c_str(), &error)) {
      for (PQconninfoOption* o = options; o->keyword; ++o)
        if (std::string_view(o->keyword) == "password" && o->val) add(o->val);
      PQconninfoFree(options);
    }
    if (error) PQfreemem(error);
  }
  return out;
}

std::string libpq_url(std::string_view url) {
  const std::size_t start = scheme_length(url);
  if (start == 0) return std::string(url);
  std::size_t slash = url.find('/', start);
  if (slash == std::string_view::npos) slash = url.size();
  const std::size_t last_at = url.substr(0, slash).rfind('@');
  if (last_at == std::string_view::npos || last_at < start) return std::string(url);
  std::string out(url.substr(0, start));
  for (std::size_t i = start; i < last_at; ++i) {
    if (url[i] == '@')
      out += "%40";
    else
      out += url[i];
  }
  out.append(url.substr(last_at));
  return out;
}

std::expected<std::string, std::string> resolve_location(std::string_view given) {
  if (given.starts_with("env:")) {
    const std::string name(given.substr(4));
    if (name.empty()) return std::unexpected("env: names no environment variable (env:NAME)");
    const char* value = std::getenv(name.c_str());
    if (!value) return std::unexpected("the environment variable " + name + " is not set");
    if (!*value) return std::unexpected("the environment variable " + name + " is empty");
    return std::string(value);
  }
  if (given.starts_with("file:")) {
    const std::string path(given.substr(5));
    if (path.empty()) return std::unexpected("file: names no file (file:PATH)");
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::unexpected("cannot read " + path + ": " + std::strerror(errno));
    // One line is all it holds: read a little more than the bound to tell a longer one.
    constexpr std::size_t kMax = 4096;
    std::string text(kMax + 1, '\0');
    std::size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int err = errno;
        ::close(fd);
        return std::unexpected("cannot read " + path + ": " + std::strerror(err));
      }
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    text.resize(got);
    const std::size_t newline = text.find('\n');
    if (newline == std::string::npos && got > kMax)
      return std::unexpected(path + ": its first line is longer than 4096 bytes");
    if (newline != std::string::npos) text.resize(newline);
    while (!text.empty() && blank(text.back())) text.pop_back();
    if (text.empty()) return std::unexpected(path + ": its first line is empty");
    return text;
  }
  return std::string(given);
}

}  // namespace knightly::db

#pragma once
// Database locations: a file path, or a PostgreSQL URL
// (postgresql://user[:password]@host[:port]/name[?param=value&...], also postgres://), given
// on the command line, in a config, or - so that no secret is on a command line - through
// env:NAME (the environment variable NAME holds it) or file:PATH (the file's first line).
//
// A password is never printed or stored: location_text() is the one text for people of a
// location, and every message, banner, log line, stored row, report and API answer names a
// database through it (Store::path() is it). It masks the password in every form libpq
// accepts: the user info of a URL (a raw '@' inside the password included), password=
// parameters (their keys percent-decoded, as libpq reads them), and libpq's key=value
// strings (quoted values too).
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace knightly::db {

bool is_postgres_url(std::string_view target);

// The location as people see it: a path as given, a URL or key=value string with each
// password replaced by ***.
std::string location_text(std::string_view location);

// `text` with every password in it replaced by *** (each PostgreSQL URL's, and each
// password=VALUE of a key=value string): config text before it is stored, libpq's messages.
// Wherever else in the text a password is repeated, in any form location_text hides (each
// location's url_secrets: as written, as libpq is given it, decoded), it is replaced too.
std::string redact_urls_in_text(std::string_view text);

// The same passwords overwritten in place with as many '*': for the process's own arguments,
// which /proc/PID/cmdline shows to every process of the user (engines included). `text` is one
// argument: a URL in it runs to its end.
void blank_passwords(char* text);

// The passwords a location carries, as written and decoded (percent-encoding, key=value
// quoting), for scrubbing them out of messages that quote them (libpq's parse errors do).
// Empty when it has none.
std::vector<std::string> url_secrets(std::string_view location);

// The URL as libpq is given it. libpq ends the user info at the first '@', so a password
// holding a raw '@' would be split and its tail taken for the host (and shown in libpq's
// "could not translate host name" error): every '@' but the last before the path is written
// %40, which is what the user meant.
std::string libpq_url(std::string_view url);

// What `given` names: itself, or for env:NAME the value of the environment variable NAME,
// for file:PATH the first line of the file (at most 4 KB, trailing blanks removed). Errors
// say which variable or file and why.
std::expected<std::string, std::string> resolve_location(std::string_view given);

}  // namespace knightly::db

#pragma once
// libpq, loaded when a PostgreSQL database is first used rather than at every start: the
// library and the twenty it pulls in (Kerberos, LDAP, TLS) cost each `knightly` process about
// 2 ms of CPU before main() to map and relocate, whether or not it ever speaks to PostgreSQL.
// libpq_lazy.cpp defines the libpq functions the store calls; each forwards to Debian's
// libpq.so.5, opened with dlopen on the first call.
#include <optional>
#include <string>

namespace knightly::db {

// Loads libpq.so.5 once; nullopt when it is there, else why not (dlerror's words, and the
// Debian package that has it). Safe from any thread.
std::optional<std::string> libpq_missing();

}  // namespace knightly::db

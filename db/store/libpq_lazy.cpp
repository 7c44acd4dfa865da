#include "db/store/libpq_lazy.h"

#include <dlfcn.h>
#include <libpq-fe.h>

#include "db/store/store_error.h"

namespace knightly::db {
namespace {

struct LibpqLibrary {
  void* handle = nullptr;
  std::string error;
};

const LibpqLibrary& libpq_library() {
  static const LibpqLibrary lib = [] {
    LibpqLibrary l;
    l.handle = ::dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!l.handle) {
      const char* why = ::dlerror();
      l.error = std::string("PostgreSQL's client library libpq.so.5 cannot be loaded (") +
                (why ? why : "no reason given") + "); it comes with Debian's package libpq5";
    }
    return l;
  }();
  return lib;
}

// The address of libpq's `name`; throws StoreException (the store's callers catch it) when
// the library or the symbol is missing, so no call goes through a null pointer.
void* libpq_symbol(const char* name) {
  const LibpqLibrary& lib = libpq_library();
  if (!lib.handle)
    throw StoreException(plain_error(ErrorKind::Unavailable, "PostgreSQL", lib.error));
  void* p = ::dlsym(lib.handle, name);
  if (!p)
    throw StoreException(plain_error(ErrorKind::Unavailable, "PostgreSQL",
                                     std::string("libpq.so.5 has no function ") + name +
                                         " (libpq 14 or later is needed)"));
  return p;
}

// The function `name` of type F, looked up once.
template <class F>
F libpq_function(const char* name) {
  return reinterpret_cast<F>(libpq_symbol(name));
}

}  // namespace

std::optional<std::string> libpq_missing() {
  const LibpqLibrary& lib = libpq_library();
  if (lib.handle) return std::nullopt;
  return lib.error;
}

}  // namespace knightly::db

// Each function the store calls, with libpq-fe.h's signature: the first call resolves it.
#define KNIGHTLY_LIBPQ(ret, name, params, args)                                 \
  extern "C" ret name params {                                                  \
    static const auto fn = knightly::db::libpq_function<ret(*) params>(#name);  \
    return fn args;                                                             \
  }

KNIGHTLY_LIBPQ(PGconn*, PQconnectdb, (const char* conninfo), (conninfo))
KNIGHTLY_LIBPQ(PGconn*, PQconnectdbParams,
               (const char* const* keywords, const char* const* values, int expand_dbname),
               (keywords, values, expand_dbname))
KNIGHTLY_LIBPQ(void, PQfinish, (PGconn * conn), (conn))
KNIGHTLY_LIBPQ(void, PQreset, (PGconn * conn), (conn))
KNIGHTLY_LIBPQ(ConnStatusType, PQstatus, (const PGconn* conn), (conn))
KNIGHTLY_LIBPQ(PGTransactionStatusType, PQtransactionStatus, (const PGconn* conn), (conn))
KNIGHTLY_LIBPQ(char*, PQerrorMessage, (const PGconn* conn), (conn))
KNIGHTLY_LIBPQ(PQnoticeProcessor, PQsetNoticeProcessor,
               (PGconn * conn, PQnoticeProcessor proc, void* arg), (conn, proc, arg))
KNIGHTLY_LIBPQ(PQconninfoOption*, PQconninfoParse, (const char* conninfo, char** errmsg),
               (conninfo, errmsg))
KNIGHTLY_LIBPQ(void, PQconninfoFree, (PQconninfoOption * options), (options))
KNIGHTLY_LIBPQ(void, PQfreemem, (void* ptr), (ptr))
KNIGHTLY_LIBPQ(PGresult*, PQexec, (PGconn * conn, const char* query), (conn, query))
KNIGHTLY_LIBPQ(PGresult*, PQexecParams,
               (PGconn * conn, const char* command, int nParams, const Oid* paramTypes,
                const char* const* paramValues, const int* paramLengths, const int* paramFormats,
                int resultFormat),
               (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats,
                resultFormat))
KNIGHTLY_LIBPQ(PGresult*, PQprepare,
               (PGconn * conn, const char* stmtName, const char* query, int nParams,
                const Oid* paramTypes),
               (conn, stmtName, query, nParams, paramTypes))
KNIGHTLY_LIBPQ(PGresult*, PQexecPrepared,
               (PGconn * conn, const char* stmtName, int nParams, const char* const* paramValues,
                const int* paramLengths, const int* paramFormats, int resultFormat),
               (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))
KNIGHTLY_LIBPQ(int, PQsendQueryParams,
               (PGconn * conn, const char* command, int nParams, const Oid* paramTypes,
                const char* const* paramValues, const int* paramLengths, const int* paramFormats,
                int resultFormat),
               (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats,
                resultFormat))
KNIGHTLY_LIBPQ(int, PQsendPrepare,
               (PGconn * conn, const char* stmtName, const char* query, int nParams,
                const Oid* paramTypes),
               (conn, stmtName, query, nParams, paramTypes))
KNIGHTLY_LIBPQ(int, PQsendQueryPrepared,
               (PGconn * conn, const char* stmtName, int nParams, const char* const* paramValues,
                const int* paramLengths, const int* paramFormats, int resultFormat),
               (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))
KNIGHTLY_LIBPQ(PGresult*, PQgetResult, (PGconn * conn), (conn))
KNIGHTLY_LIBPQ(int, PQenterPipelineMode, (PGconn * conn), (conn))
KNIGHTLY_LIBPQ(int, PQexitPipelineMode, (PGconn * conn), (conn))
KNIGHTLY_LIBPQ(int, PQpipelineSync, (PGconn * conn), (conn))
KNIGHTLY_LIBPQ(PGpipelineStatus, PQpipelineStatus, (const PGconn* conn), (conn))
KNIGHTLY_LIBPQ(void, PQclear, (PGresult * res), (res))
KNIGHTLY_LIBPQ(ExecStatusType, PQresultStatus, (const PGresult* res), (res))
KNIGHTLY_LIBPQ(char*, PQresultErrorMessage, (const PGresult* res), (res))
KNIGHTLY_LIBPQ(char*, PQresultErrorField, (const PGresult* res, int fieldcode), (res, fieldcode))
KNIGHTLY_LIBPQ(char*, PQcmdStatus, (PGresult * res), (res))
KNIGHTLY_LIBPQ(int, PQntuples, (const PGresult* res), (res))
KNIGHTLY_LIBPQ(int, PQnfields, (const PGresult* res), (res))
KNIGHTLY_LIBPQ(char*, PQgetvalue, (const PGresult* res, int tup_num, int field_num),
               (res, tup_num, field_num))
KNIGHTLY_LIBPQ(int, PQgetlength, (const PGresult* res, int tup_num, int field_num),
               (res, tup_num, field_num))
KNIGHTLY_LIBPQ(int, PQgetisnull, (const PGresult* res, int tup_num, int field_num),
               (res, tup_num, field_num))

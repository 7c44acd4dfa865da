# cmake -DOUTPUT=file.cpp -DFILES=a.sql|b.sql -P embed_schema.cmake
# Writes the migrations as raw string literals, checking they are numbered 1..N with no gap.
string(REPLACE "|" ";" files "${FILES}")
list(SORT files)
set(body "")
set(expected 1)
foreach(f IN LISTS files)
  get_filename_component(name "${f}" NAME)
  if(NOT name MATCHES "^([0-9]+)_[A-Za-z0-9_]+\\.sql$")
    message(FATAL_ERROR "db/schema/${name}: migrations are named NNN_what.sql")
  endif()
  math(EXPR version "${CMAKE_MATCH_1}")
  if(NOT version EQUAL expected)
    message(FATAL_ERROR "db/schema/${name}: expected migration number ${expected}")
  endif()
  math(EXPR expected "${expected} + 1")
  file(READ "${f}" sql)
  string(FIND "${sql}" ")knightly_sql" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "db/schema/${name} contains the literal delimiter )knightly_sql")
  endif()
  string(APPEND body "    {${version}, \"${name}\", R\"knightly_sql(${sql})knightly_sql\"},\n")
endforeach()
if(expected EQUAL 1)
  message(FATAL_ERROR "no migrations found in db/schema")
endif()
file(WRITE "${OUTPUT}.tmp"
"// Generated from db/schema/*.sql by db/store/embed_schema.cmake: do not edit.
#include \"db/store/migrations.h\"

namespace knightly::db {

namespace {
constexpr Migration kMigrations[] = {
${body}};
}  // namespace

std::span<const Migration> embedded_migrations() { return kMigrations; }

}  // namespace knightly::db
")
# Only touch the output when it changed, so an unchanged schema does not rebuild the library.
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
file(REMOVE "${OUTPUT}.tmp")

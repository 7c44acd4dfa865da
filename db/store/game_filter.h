#pragma once
// Turns a GameFilter into a WHERE clause with `?` placeholders and the values to bind.
#include <string>
#include <vector>

#include "db/records/store_types.h"
#include "db/store/statement.h"

namespace knightly::db {

struct FilterSql {
  std::string where;          // " WHERE ..." or "" (alias g for games)
  std::vector<Value> params;  // in placeholder order
};

FilterSql filter_sql(const GameFilter& filter);

}  // namespace knightly::db

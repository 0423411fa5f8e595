// A report table as plain data: its name, its columns (each with its type, constraints and
// meaning) and what follows them. Every table of a report is declared once in this form (the
// event tables derive theirs from their typed declarations, event_tables.h); the table's
// CREATE statement (create_table_sql.h), the schema checks of the readers, the Python
// package's column lists and the documentation all come from it (report_tables.h lists them).
#pragma once

#include <span>
#include <string_view>

namespace gpuscope::store {

struct ColumnInfo {
  std::string_view name;
  std::string_view sql_type;  // with its column constraints, e.g. "TEXT NOT NULL UNIQUE"
  std::string_view doc;       // '\n' separates its lines
};

struct TableInfo {
  std::string_view name;
  std::string_view doc;  // comment lines above the statement ('\n' separates them); "" none
  std::span<const ColumnInfo> columns;
  // The table constraint after the columns, e.g. "PRIMARY KEY (device_id, idx)"; "" none.
  std::string_view constraint = {};
  // Comment lines after the columns (what meta's keys and counters' names mean); "" none.
  std::string_view trailer = {};
  bool without_rowid = false;
  // The event tables' first column, `id INTEGER PRIMARY KEY -- insertion order`, which their
  // typed declarations leave out (it maps to no member of the record).
  bool insertion_order_id = false;
};

// The column insertion_order_id stands for.
inline constexpr ColumnInfo kInsertionOrderId = {"id", "INTEGER PRIMARY KEY", "insertion order"};

}  // namespace gpuscope::store

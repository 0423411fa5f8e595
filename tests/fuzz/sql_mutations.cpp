#include "sql_mutations.h"

#include <sqlite3.h>

#include <cstdint>
#include <vector>

#include "mutant_database.h"

namespace gpuscope::fuzz {
namespace {

struct Table {
  std::string name;
  std::vector<std::string> columns;
  std::int64_t rows = 0;
};

// `text` between `mark`s, a mark inside doubled: an identifier ("), or a string literal (').
std::string Quote(const std::string& text, char mark = '"') {
  std::string quoted(1, mark);
  for (char c : text) quoted += c == mark ? std::string(2, mark) : std::string(1, c);
  return quoted + mark;
}

// The text results of `sql` (first column), or nullopt when it fails.
std::optional<std::vector<std::string>> Column(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    sqlite3_finalize(statement);
    return std::nullopt;
  }
  std::vector<std::string> values;
  int step;
  while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
    const unsigned char* text = sqlite3_column_text(statement, 0);
    values.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
  }
  sqlite3_finalize(statement);
  if (step != SQLITE_DONE) return std::nullopt;
  return values;
}

std::optional<std::vector<Table>> ReadTables(sqlite3* db) {
  auto names = Column(db,
                      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                      "'sqlite_%' ORDER BY name");
  if (!names) return std::nullopt;
  std::vector<Table> tables;
  for (const std::string& name : *names) {
    Table table;
    table.name = name;
    auto columns = Column(db, "SELECT name FROM pragma_table_info(" + Quote(name, '\'') + ")");
    auto rows = Column(db, "SELECT count(*) FROM " + Quote(name));
    if (!columns || columns->empty() || !rows || rows->empty()) continue;
    table.columns = *columns;
    table.rows = std::stoll(rows->front());
    tables.push_back(std::move(table));
  }
  return tables;
}

// The 1 MB string goes into one row only: in every row of `strings` it names every kernel, and
// outputs that repeat the name per metric row (stats --page raw --format csv) grow to gigabytes,
// which is slow, not wrong.
constexpr std::string_view kMegabyteString = "replace(hex(zeroblob(524288)), '0', 'x')";

// Values that break careless readers: NULL, integer boundaries, non-finite and fractional
// REALs, text and blobs where numbers belong, NUL and terminal control characters inside
// strings, invalid UTF-8, a 1 MB string.
const char* const kHostileValues[] = {
    "NULL",
    "9223372036854775807",
    "-9223372036854775808",
    "-1",
    "0",
    "2147483648",
    "4294967296",
    "4611686018427387904",
    "-4611686018427387904",
    "1e308",
    "9e999",
    "-9e999",
    "0.5",
    "'not a number'",
    "''",
    "x'00ff'",
    "CAST(x'6100620063' AS TEXT)",
    "CAST(x'1b5d303b78070d0a3d31c3ff' AS TEXT)",
    kMegabyteString.data(),
};

// The row at `position`, identified by the first column (which also works for WITHOUT ROWID
// tables such as meta).
std::string OneRow(const Table& table, std::uint64_t position) {
  std::string key = Quote(table.columns.front());
  return " WHERE " + key + " IN (SELECT " + key + " FROM " + Quote(table.name) +
         " LIMIT 1 OFFSET " + std::to_string(position) + ")";
}

// Rows to change: all of them, or one.
std::string RowFilter(const Table& table, RandomSource& random) {
  if (table.rows == 0 || random.OneIn(3)) return "";
  return OneRow(table, random.Below(static_cast<std::uint64_t>(table.rows)));
}

const std::string& AnyColumn(const Table& table, RandomSource& random) {
  return table.columns[random.Below(table.columns.size())];
}

std::string SetHostileValue(const Table& table, RandomSource& random) {
  std::string column = Quote(AnyColumn(table, random));
  std::string value = random.Pick(kHostileValues);
  std::string rows = RowFilter(table, random);
  if (value == kMegabyteString && rows.empty() && table.rows > 0) rows = OneRow(table, 0);
  return "UPDATE " + Quote(table.name) + " SET " + column + " = " + value + rows;
}

bool Has(const Table& table, const std::string& column) {
  for (const std::string& c : table.columns) {
    if (c == column) return true;
  }
  return false;
}

std::string EndBeforeStart(const Table& table, RandomSource& random) {
  if (!Has(table, "start") || !Has(table, "end")) return "";
  static const char* const kGaps[] = {"1", "1000", "9223372036854775807", "start"};
  // One draw per statement: the order in which operands of + are evaluated is unspecified, and
  // a seed must give the same mutant whichever compiler built the driver.
  std::string gap = random.Pick(kGaps);
  return "UPDATE " + Quote(table.name) + " SET \"end\" = start - " + gap +
         RowFilter(table, random);
}

// A copy of the table without its primary key (CREATE TABLE AS keeps columns, not
// constraints), with one row inserted twice.
std::string DuplicateRow(const Table& table, RandomSource& random) {
  if (table.rows == 0) return "";
  std::string name = Quote(table.name);
  return "CREATE TABLE fuzz_rebuilt AS SELECT * FROM " + name + "; INSERT INTO fuzz_rebuilt " +
         "SELECT * FROM " + name + " LIMIT 1 OFFSET " +
         std::to_string(random.Below(static_cast<std::uint64_t>(table.rows))) + "; DROP TABLE " +
         name + "; ALTER TABLE fuzz_rebuilt RENAME TO " + name;
}

// Every row takes one row's value of a column: the same id, correlation or name for all.
std::string SameValueEverywhere(const Table& table, RandomSource& random) {
  if (table.rows < 2) return "";
  std::string column = Quote(AnyColumn(table, random));
  return "UPDATE " + Quote(table.name) + " SET " + column + " = (SELECT " + column + " FROM " +
         Quote(table.name) + " LIMIT 1 OFFSET " +
         std::to_string(random.Below(static_cast<std::uint64_t>(table.rows))) + ")";
}

std::string DropTable(const Table& table, RandomSource&) { return "DROP TABLE " + Quote(table.name); }

std::string DropColumn(const Table& table, RandomSource& random) {
  const std::string& dropped = AnyColumn(table, random);
  if (random.OneIn(2)) {
    return "ALTER TABLE " + Quote(table.name) + " DROP COLUMN " + Quote(dropped);
  }
  // The way that also works for primary keys and columns views use: rebuild without it.
  std::string kept;
  for (const std::string& column : table.columns) {
    if (column == dropped) continue;
    kept += (kept.empty() ? "" : ", ") + Quote(column);
  }
  if (kept.empty()) return "";
  return "CREATE TABLE fuzz_rebuilt AS SELECT " + kept + " FROM " + Quote(table.name) +
         "; DROP TABLE " + Quote(table.name) + "; ALTER TABLE fuzz_rebuilt RENAME TO " +
         Quote(table.name);
}

std::string DeleteRows(const Table& table, RandomSource& random) {
  if (table.rows == 0) return "";
  return "DELETE FROM " + Quote(table.name) + RowFilter(table, random);
}

// The table replaced by a view: of its own rows (which a reader may refuse), or an endless
// recursive one (which a reader must refuse, or bound).
std::string ReplaceByView(const Table& table, RandomSource& random) {
  std::string name = Quote(table.name);
  if (random.OneIn(2)) {
    return "ALTER TABLE " + name + " RENAME TO fuzz_hidden; CREATE VIEW " + name +
           " AS SELECT * FROM fuzz_hidden";
  }
  std::string columns;
  for (const std::string& column : table.columns) {
    columns += (columns.empty() ? "" : ", ") + std::string("n AS ") + Quote(column);
  }
  return "DROP TABLE " + name + "; CREATE VIEW " + name +
         " AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT " + columns +
         " FROM r";
}

std::string WrongIdentity(RandomSource& random) {
  static const char* const kVersions[] = {"0", "2", "999", "-1", "2147483647"};
  static const char* const kKeys[] = {"schema_version", "format", "time_base_ns", "finalized",
                                      "gpuscope_version"};
  if (random.OneIn(2)) return std::string("PRAGMA user_version = ") + random.Pick(kVersions);
  std::string value = random.Pick(kHostileValues);
  std::string key = random.Pick(kKeys);
  return "UPDATE meta SET value = " + value + " WHERE key = '" + key + "'";
}

// Values changed most often: a file that lost a table or a column, or whose table is a view,
// is refused on open, which stops every reader at the same place.
std::string DrawMutation(const std::vector<Table>& tables, RandomSource& random) {
  std::uint64_t kind = random.Below(16);
  if (kind == 15 || tables.empty()) return WrongIdentity(random);
  const Table& table = tables[random.Below(tables.size())];
  switch (kind) {
    case 7: case 8: return EndBeforeStart(table, random);
    case 9: return DuplicateRow(table, random);
    case 10: return SameValueEverywhere(table, random);
    case 11: return DropTable(table, random);
    case 12: return DropColumn(table, random);
    case 13: return DeleteRows(table, random);
    case 14: return ReplaceByView(table, random);
    default: return SetHostileValue(table, random);
  }
}

bool Exec(sqlite3* db, const std::string& sql) {
  return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
}

}  // namespace

std::optional<std::string> MutateSql(const std::string& path, RandomSource& random) {
  MutantDatabase db(path);
  if (db.get() == nullptr) return std::nullopt;
  // Renaming a table must not rewrite (or first validate) the views that name it.
  if (!Exec(db.get(), "PRAGMA legacy_alter_table = ON")) return std::nullopt;
  std::optional<std::vector<Table>> tables = ReadTables(db.get());
  if (!tables) return std::nullopt;
  for (int attempt = 0; attempt < 20; ++attempt) {
    std::string sql = DrawMutation(*tables, random);
    if (sql.empty()) continue;
    if (Exec(db.get(), "BEGIN; " + sql + "; COMMIT")) return sql;
    Exec(db.get(), "ROLLBACK");
  }
  return std::nullopt;
}

}  // namespace gpuscope::fuzz

#include "store/schema_objects.h"

#include <set>
#include <string_view>

#include "store/report_tables.h"
#include "store/schema.h"
#include "store/sqlite_util.h"

namespace gpuscope::store {
namespace {

// SQLite's names are case-insensitive (ASCII): "Kernels" is the table gpuscope reads.
std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && Lower(text.substr(0, prefix.size())) == Lower(prefix);
}

// schema.sql without its `--` comments (which mention "CREATE VIEW" in prose).
std::string SchemaStatements() {
  std::string statements;
  std::string_view schema = SchemaSql();
  while (!schema.empty()) {
    std::size_t end = schema.find('\n');
    std::string_view line = schema.substr(0, end);
    statements.append(line.substr(0, line.find("--")));
    statements += '\n';
    schema = end == std::string_view::npos ? std::string_view() : schema.substr(end + 1);
  }
  return statements;
}

// The names that follow each `keyword` ("CREATE VIEW ") in schema.sql, lower-cased.
std::set<std::string> NamesAfter(const std::string& statements, std::string_view keyword) {
  std::set<std::string> names;
  for (std::size_t at = statements.find(keyword); at != std::string::npos;
       at = statements.find(keyword, at + 1)) {
    std::size_t begin = at + keyword.size();
    std::size_t end = statements.find_first_of(" (\n", begin);
    if (end != std::string::npos) names.insert(Lower(statements.substr(begin, end - begin)));
  }
  return names;
}

struct KnownObjects {
  std::set<std::string> tables;
  std::set<std::string> views;
};

// Every table gpuscope creates is declared in report_tables.h (the evaluation's too: it
// creates them again in reports older than they are); every view is in schema.sql.
const KnownObjects& Known() {
  static const KnownObjects known = [] {
    KnownObjects objects;
    for (const TableInfo& table : kReportTables) objects.tables.insert(Lower(table.name));
    objects.views = NamesAfter(SchemaStatements(), "CREATE VIEW ");
    return objects;
  }();
  return known;
}

// Why the object is none of gpuscope's, or "" when it is one.
std::string Foreign(std::string_view type, std::string_view name, std::string_view table,
                    bool has_sql, std::string_view sql) {
  const KnownObjects& known = Known();
  const std::string quoted = "`" + std::string(name) + "`";
  if (type == "table") {
    if (!known.tables.contains(Lower(name))) return "a table " + quoted;
    // A virtual table of a known name would run its module's code on every read.
    if (!StartsWithNoCase(sql, "CREATE TABLE")) return "a virtual table " + quoted;
    return "";
  }
  if (type == "view") return known.views.contains(Lower(name)) ? "" : "a view " + quoted;
  if (type == "index") {
    // SQLite's own index of a UNIQUE or PRIMARY KEY constraint has no SQL; gpuscope
    // creates no other (its tables are read in rowid or key order).
    if (!has_sql && StartsWithNoCase(name, "sqlite_autoindex_") &&
        known.tables.contains(Lower(table))) {
      return "";
    }
    return "an index " + quoted + " on " + std::string(table);
  }
  if (type == "trigger") return "a trigger " + quoted + " on " + std::string(table);
  return "a " + std::string(type) + " " + quoted;
}

}  // namespace

Status CheckSchemaObjects(sqlite3* db, const std::string& context) {
  StatusOr<Statement> stmt = Statement::Prepare(
      db, "SELECT type, name, tbl_name, sql IS NOT NULL, sql FROM sqlite_master");
  if (!stmt.ok()) return SqliteError(db, context);
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* row = stmt->get();
    std::string foreign = Foreign(ColumnText(row, 0), ColumnText(row, 1), ColumnText(row, 2),
                                  sqlite3_column_int(row, 3) != 0, ColumnText(row, 4));
    if (!foreign.empty()) {
      return Status::Error(context + ": not a gpuscope report (it has " + foreign +
                           ", which gpuscope never creates)");
    }
  }
  if (rc != SQLITE_DONE) return SqliteError(db, context);
  return Status();
}

}  // namespace gpuscope::store

// Prints the statements that create an empty report (schema.sql with the event tables made
// from their declarations), for the browser tests that fill a report with the sqlite3 shell.
#include <iostream>

#include "store/create_table_sql.h"

int main() {
  std::cout << gpuscope::store::ReportSchemaSql();
  return std::cout.good() ? 0 : 1;
}

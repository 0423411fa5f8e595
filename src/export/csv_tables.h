// CSV export (`gpuscope export --format csv`): one RFC 4180 file per table of a report,
// names resolved (the schema's *_v views: kernel names demangled, copy kinds and memory
// kinds spelled out), absolute nanosecond times. Rows stream from SQLite to the file. These
// are the stored rows: a damaged one (store/damaged_rows.h: an end before its start, a time
// outside the run, a grid of 0) is written as such, with its stored values, not left out;
// the views' duration is then the negative difference as stored.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "store/report_reader.h"
#include "util/status.h"

// src/export's namespace is gpuscope::exporter, not gpuscope::export: `export` is a C++ keyword.
namespace gpuscope::exporter {

// kernels, memcpys, memsets, api_calls, nvtx, memory, syncs, overheads, devices,
// kernel_metrics, kernel_findings: the file names without ".csv".
const std::vector<std::string>& CsvTableNames();

// One table (a name of CsvTableNames) as CSV: the header row, then a row per record.
Status WriteCsvTable(const store::ReportReader& report, const std::string& table,
                     std::ostream& out);

// Writes <directory>/<table>.csv for every table, creating `directory` if needed. (The
// gpuscope command writes each table through cli/output/output_file.h instead, so that existing
// files are only replaced when asked and never half.)
Status WriteCsvTables(const store::ReportReader& report, const std::string& directory);

// One CSV field: quoted (inner quotes doubled) when it holds a comma, quote, CR or LF.
std::string CsvField(std::string_view text);

}  // namespace gpuscope::exporter

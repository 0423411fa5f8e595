// Helpers for the store tests: a scratch directory, raw SQL on a report, a report opened for
// reading, and file surgery for the damaged-file tests. Sample records come from
// store/testing/sample_records.h.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "store/report_reader.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::store::test {

// A fresh directory under $TMPDIR (or /tmp), removed with its contents on destruction.
using TempDir = testing::ScratchDir;

bool FileExists(const std::string& path);
std::uint64_t FileSize(const std::string& path);
std::vector<char> ReadFileBytes(const std::string& path);
void WriteFileBytes(const std::string& path, const std::vector<char>& bytes);

// SQLite's file change counter (header offset 24, big-endian). In rollback-journal mode, as
// the finaliser leaves a report, it counts one per committed write transaction.
std::uint32_t FileChangeCounter(const std::string& path);

// Runs `sql` on the report (read-write) and returns the first column of the first row as
// text ("" when NULL or no row). Fails the test on SQL errors.
std::string QueryText(const std::string& path, const std::string& sql);
std::int64_t QueryInt(const std::string& path, const std::string& sql);
void ExecSql(const std::string& path, const std::string& sql);

// The report opened for reading, or nullptr and a test failure that says why.
std::unique_ptr<ReportReader> OpenReport(const std::string& path);

}  // namespace gpuscope::store::test

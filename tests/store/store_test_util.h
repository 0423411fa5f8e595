// Helpers for the store tests: a scratch directory, raw SQL on a report, file surgery for
// the damaged-file tests, and fully populated sample records.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/records.h"

namespace gpuscope::store::test {

// A fresh directory under $TMPDIR (or /tmp), removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

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

// Absolute timestamps in the range CUPTI produces (CLOCK_REALTIME ns, 2025).
inline constexpr model::Timestamp kT0 = 1'760'000'000'123'456'789ull;

// Records with every field set to a distinct, non-default value (string views point to
// static storage). `i` varies the values.
model::KernelRecord SampleKernel(int i);
model::MemcpyRecord SampleMemcpy(int i);
model::MemsetRecord SampleMemset(int i);
model::ApiCallRecord SampleApiCall(int i);
model::MemoryRecord SampleMemory(int i);
model::SyncRecord SampleSync(int i);
model::NvtxRecord SampleNvtx(int i);
model::OverheadRecord SampleOverhead(int i);
model::DeviceRecord SampleDevice(int i);

}  // namespace gpuscope::store::test

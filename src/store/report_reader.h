// Reads a gpuscope report back. Open() validates that the file is a complete report of a
// schema version we understand and fails with a one-line message otherwise (not SQLite,
// truncated, corrupt, a foreign database, another schema version). Rows stream through
// callbacks so that reports of tens of millions of events never sit in memory whole.
//
// Times come back absolute (the writer stores them relative to the report's time base).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/records.h"
#include "util/status.h"

struct sqlite3;

namespace gpuscope::store {

struct ProcessInfo {
  std::uint32_t pid = 0;
  std::uint32_t parent_pid = 0;
  std::string hostname;
  std::string command_line;
  model::Timestamp start = 0;
  model::Timestamp end = 0;  // last flush; 0 if the process never flushed
};

struct DeviceInfo {
  model::DeviceRecord record;  // string views point into name/uuid below
  std::string name;
  std::string uuid;
};

// A kernel with its names resolved. demangled_name equals mangled_name when the name
// is not a C++ mangled name (or demangling failed).
struct KernelRow {
  model::KernelRecord record;  // record.mangled_name points into the reader's string table
  std::string_view demangled_name;
  std::uint32_t name_id = 0;   // stable within one report: equal ids, equal names
};

struct ApiCallRow {
  model::ApiCallRecord record;  // record.name points into the reader's string table
  bool nested_in_runtime = false;
  std::uint32_t name_id = 0;
};

class ReportReader {
 public:
  static StatusOr<std::unique_ptr<ReportReader>> Open(const std::string& path);
  ~ReportReader();
  ReportReader(const ReportReader&) = delete;
  ReportReader& operator=(const ReportReader&) = delete;

  const std::string& path() const { return path_; }
  int schema_version() const { return schema_version_; }
  const ProcessInfo& process() const { return process_; }
  const std::vector<DeviceInfo>& devices() const { return devices_; }
  const model::CollectionCounters& counters() const { return counters_; }

  // Each ForEach streams rows in start-time order where the table has one.
  // A false return from the callback stops the iteration early.
  Status ForEachKernel(const std::function<bool(const KernelRow&)>& fn) const;
  Status ForEachMemcpy(const std::function<bool(const model::MemcpyRecord&)>& fn) const;
  Status ForEachMemset(const std::function<bool(const model::MemsetRecord&)>& fn) const;
  Status ForEachApiCall(const std::function<bool(const ApiCallRow&)>& fn) const;
  Status ForEachMemory(const std::function<bool(const model::MemoryRecord&)>& fn) const;
  Status ForEachSync(const std::function<bool(const model::SyncRecord&)>& fn) const;
  Status ForEachNvtx(const std::function<bool(const model::NvtxRecord&)>& fn) const;
  Status ForEachOverhead(const std::function<bool(const model::OverheadRecord&)>& fn) const;

  // Row counts, cheap (for tests and headers).
  StatusOr<std::uint64_t> CountRows(const std::string& table) const;

  // The underlying connection, read-only, for ad-hoc queries in tests and tools.
  sqlite3* db() const { return db_; }

 private:
  ReportReader() = default;
  Status Load();

  std::string path_;
  sqlite3* db_ = nullptr;
  int schema_version_ = 0;
  model::Timestamp time_base_ = 0;
  ProcessInfo process_;
  std::vector<DeviceInfo> devices_;
  model::CollectionCounters counters_;
  std::vector<std::string> strings_;  // id -> text, loaded once
  std::vector<std::string> demangled_;  // id -> demangled text for kernel names
};

}  // namespace gpuscope::store

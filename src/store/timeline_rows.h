// The few columns of each event that a timeline index needs (the viewer's TrackIndex):
// row id, times, name id, where it ran and its correlation ids, read straight from the
// event tables in row order, without the reader's start ordering or full-row decoding:
// cheaper than ReportReader::ForEach*, and with the row ids that ReadEventRow looks up.
//
// A TimelineRowReader reads either on the report reader's connection or on one of its own,
// so that the GPU and the host side of a report load on two threads at once (10 M events
// in about 2 s, bench/RESULTS.md). Times are absolute; nullopt where the row has none.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "model/records.h"
#include "store/damaged_rows.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::store {

class ReadOnlyConnection;

// What every timeline row has: its row id (ReadEventRow's) and its times.
struct EventSpan {
  std::uint32_t id = 0;
  std::optional<model::Timestamp> start, end;
};

struct KernelSpan : EventSpan {
  std::uint32_t name_id = 0;  // an id of ForEachName (the demangled name)
  std::uint32_t device_id = 0, stream_id = 0, correlation_id = 0;
};

struct MemcpySpan : EventSpan {
  std::uint32_t copy_kind = 0;  // model::CopyKind's value as stored
  std::uint32_t device_id = 0, stream_id = 0;
  std::uint32_t correlation_id = 0;          // the driver call's
  std::uint32_t runtime_correlation_id = 0;  // the runtime call's that made it; 0 when none
};

struct MemsetSpan : EventSpan {
  std::uint32_t device_id = 0, stream_id = 0, correlation_id = 0;
};

struct ApiSpan : EventSpan {
  std::uint32_t name_id = 0, thread_id = 0, correlation_id = 0;
};

struct NvtxSpan : EventSpan {  // end: nullopt for marks and ranges that never ended
  model::NvtxKind kind = model::NvtxKind::kMark;
  std::uint32_t name_id = 0, thread_id = 0;
};

// One allocation or free of device memory.
struct MemoryChange {
  model::Timestamp timestamp = 0;
  model::MemoryOp op = model::MemoryOp::kAlloc;
  std::uint64_t bytes = 0;  // 0 in some frees: the size is the allocation's
  std::uint64_t address = 0;
  std::uint32_t device_id = 0;
};

class TimelineRowReader {
 public:
  // Reads on `report`'s own connection: not at the same time as other reads of `report`.
  explicit TimelineRowReader(const ReportReader& report);
  // Reads on a read-only connection of its own to `report`'s file, so that it can run on
  // another thread while `report` is read. Fails when the file cannot be opened again.
  static StatusOr<std::unique_ptr<TimelineRowReader>> WithOwnConnection(const ReportReader& report);
  ~TimelineRowReader();
  TimelineRowReader(const TimelineRowReader&) = delete;
  TimelineRowReader& operator=(const TimelineRowReader&) = delete;

  // Every string of the report by id, kernel names demangled, in id order: the reader's
  // (ReportReader::DemangledString), shortened once there.
  Status ForEachName(const std::function<void(std::uint32_t id, std::string_view)>& fn) const;
  // Every row of a table, in row order (not start order).
  Status ForEachKernel(const std::function<void(const KernelSpan&)>& fn) const;
  Status ForEachMemcpy(const std::function<void(const MemcpySpan&)>& fn) const;
  Status ForEachMemset(const std::function<void(const MemsetSpan&)>& fn) const;
  Status ForEachApiCall(const std::function<void(const ApiSpan&)>& fn) const;
  Status ForEachNvtx(const std::function<void(const NvtxSpan&)>& fn) const;
  // The allocations and frees with a timestamp, in time order.
  Status ForEachMemoryChange(const std::function<void(const MemoryChange&)>& fn) const;

  // The rows the ForEach* above left out as damaged (damaged_rows.h: an end before the
  // start, a time outside the run, a kernel dimension of 0), added up over every call.
  const DamagedRows& damaged_rows() const { return damaged_; }

 private:
  TimelineRowReader(const ReportReader& report, std::unique_ptr<ReadOnlyConnection> own);

  std::unique_ptr<ReadOnlyConnection> own_;  // null: the reader's connection is used
  const ReportReader* report_ = nullptr;     // its names (ForEachName)
  sqlite3* db_ = nullptr;
  model::Timestamp time_base_ = 0;
  RunExtent run_;
  mutable DamagedRows damaged_;  // the ForEach* are const reads; one thread per reader
};

}  // namespace gpuscope::store

#include "store/timeline_rows.h"

#include "store/query_rows.h"

namespace gpuscope::store {
namespace {

// Every row of `sql`, decoded by `decode`; rows are never cut short.
template <typename Decode>
Status ForEachRow(sqlite3* db, std::string_view sql, std::string_view what, Decode decode) {
  return StepRows(db, sql, {}, what, [&](sqlite3_stmt* row) {
    decode(row);
    return true;
  });
}

// Whether `span` is damaged (counted in `damaged` under `table`, and then left out).
bool Damaged(const EventSpan& span, std::size_t table, const RunExtent& run, DamagedRows& damaged) {
  std::optional<Damage> damage = TimestampDamage(span.start.value_or(0), span.end.value_or(0), run);
  if (damage) damaged.Add(table, *damage);
  return damage.has_value();
}

// A Span whose id and times come from the row's first three columns (id, start, "end").
template <typename Span>
Span SpanOf(sqlite3_stmt* row, model::Timestamp time_base) {
  Span span;
  span.id = ColumnU32(row, 0);
  span.start = ColumnTime(row, 1, time_base);
  span.end = ColumnTime(row, 2, time_base);
  return span;
}

}  // namespace

TimelineRowReader::TimelineRowReader(const ReportReader& report)
    : TimelineRowReader(report, nullptr) {}

TimelineRowReader::TimelineRowReader(const ReportReader& report,
                                     std::unique_ptr<ReadOnlyConnection> own)
    : own_(std::move(own)),
      report_(&report),
      db_(own_ ? own_->db() : report.db()),
      time_base_(report.time_base()),
      run_{report.process().start, report.process().end} {}

TimelineRowReader::~TimelineRowReader() = default;

StatusOr<std::unique_ptr<TimelineRowReader>> TimelineRowReader::WithOwnConnection(
    const ReportReader& report) {
  StatusOr<std::unique_ptr<ReadOnlyConnection>> own = ReadOnlyConnection::Open(report.path());
  if (!own.ok()) return own.status();
  return std::unique_ptr<TimelineRowReader>(new TimelineRowReader(report, std::move(own.value())));
}

Status TimelineRowReader::ForEachName(
    const std::function<void(std::uint32_t id, std::string_view)>& fn) const {
  // The reader loaded them once (read-only since), so any thread may walk them.
  for (std::int64_t id = 1;; ++id) {
    std::optional<std::string_view> name = report_->DemangledString(id);
    if (!name) break;
    fn(static_cast<std::uint32_t>(id), *name);
  }
  return {};
}

Status TimelineRowReader::ForEachKernel(const std::function<void(const KernelSpan&)>& fn) const {
  return ForEachRow(
      db_,
      "SELECT id, start, \"end\", name_id, device_id, stream_id, correlation_id, grid_x, "
      "grid_y, grid_z, block_x, block_y, block_z FROM kernels",
      "kernels", [&](sqlite3_stmt* row) {
        auto span = SpanOf<KernelSpan>(row, time_base_);
        constexpr std::size_t kTable = kEventTableIndex<Kernels>;
        if (Damaged(span, kTable, run_, damaged_)) return;
        model::KernelRecord launch;
        launch.grid_x = static_cast<std::int32_t>(ColumnInt(row, 7));
        launch.grid_y = static_cast<std::int32_t>(ColumnInt(row, 8));
        launch.grid_z = static_cast<std::int32_t>(ColumnInt(row, 9));
        launch.block_x = static_cast<std::int32_t>(ColumnInt(row, 10));
        launch.block_y = static_cast<std::int32_t>(ColumnInt(row, 11));
        launch.block_z = static_cast<std::int32_t>(ColumnInt(row, 12));
        if (std::optional<Damage> damage = LaunchDamage(launch)) {
          damaged_.Add(kTable, *damage);
          return;
        }
        span.name_id = ColumnU32(row, 3);
        span.device_id = ColumnU32(row, 4);
        span.stream_id = ColumnU32(row, 5);
        span.correlation_id = ColumnU32(row, 6);
        fn(span);
      });
}

Status TimelineRowReader::ForEachMemcpy(const std::function<void(const MemcpySpan&)>& fn) const {
  return ForEachRow(db_,
                    "SELECT id, start, \"end\", copy_kind, device_id, stream_id, correlation_id, "
                    "runtime_correlation_id FROM memcpys",
                    "memory copies", [&](sqlite3_stmt* row) {
                      auto span = SpanOf<MemcpySpan>(row, time_base_);
                      if (Damaged(span, kEventTableIndex<Memcpys>, run_, damaged_)) return;
                      span.copy_kind = ColumnU32(row, 3);
                      span.device_id = ColumnU32(row, 4);
                      span.stream_id = ColumnU32(row, 5);
                      span.correlation_id = ColumnU32(row, 6);
                      span.runtime_correlation_id = ColumnU32(row, 7);
                      fn(span);
                    });
}

Status TimelineRowReader::ForEachMemset(const std::function<void(const MemsetSpan&)>& fn) const {
  return ForEachRow(db_,
                    "SELECT id, start, \"end\", device_id, stream_id, correlation_id FROM memsets",
                    "memsets", [&](sqlite3_stmt* row) {
                      auto span = SpanOf<MemsetSpan>(row, time_base_);
                      if (Damaged(span, kEventTableIndex<Memsets>, run_, damaged_)) return;
                      span.device_id = ColumnU32(row, 3);
                      span.stream_id = ColumnU32(row, 4);
                      span.correlation_id = ColumnU32(row, 5);
                      fn(span);
                    });
}

Status TimelineRowReader::ForEachApiCall(const std::function<void(const ApiSpan&)>& fn) const {
  return ForEachRow(db_,
                    "SELECT id, start, \"end\", name_id, thread_id, correlation_id FROM api_calls",
                    "API calls", [&](sqlite3_stmt* row) {
                      auto span = SpanOf<ApiSpan>(row, time_base_);
                      if (Damaged(span, kEventTableIndex<ApiCalls>, run_, damaged_)) return;
                      span.name_id = ColumnU32(row, 3);
                      span.thread_id = ColumnU32(row, 4);
                      span.correlation_id = ColumnU32(row, 5);
                      fn(span);
                    });
}

Status TimelineRowReader::ForEachNvtx(const std::function<void(const NvtxSpan&)>& fn) const {
  return ForEachRow(db_, "SELECT id, start, \"end\", kind, name_id, thread_id FROM nvtx",
                    "NVTX ranges", [&](sqlite3_stmt* row) {
                      auto span = SpanOf<NvtxSpan>(row, time_base_);
                      if (Damaged(span, kEventTableIndex<Nvtx>, run_, damaged_)) return;
                      span.kind = static_cast<model::NvtxKind>(ColumnInt(row, 3));
                      span.name_id = ColumnU32(row, 4);
                      span.thread_id = ColumnU32(row, 5);
                      fn(span);
                    });
}

Status TimelineRowReader::ForEachMemoryChange(
    const std::function<void(const MemoryChange&)>& fn) const {
  return ForEachRow(
      db_,
      "SELECT timestamp, op, bytes, address, device_id FROM memory "
      "WHERE timestamp IS NOT NULL ORDER BY timestamp, id",
      "memory allocations", [&](sqlite3_stmt* row) {
        MemoryChange change;
        change.timestamp = static_cast<model::Timestamp>(ColumnInt(row, 0) +
                                                         static_cast<std::int64_t>(time_base_));
        change.op = static_cast<model::MemoryOp>(ColumnInt(row, 1));
        change.bytes = static_cast<std::uint64_t>(ColumnInt(row, 2));
        change.address = static_cast<std::uint64_t>(ColumnInt(row, 3));
        change.device_id = ColumnU32(row, 4);
        if (std::optional<Damage> damage = TimestampDamage(change.timestamp, 0, run_)) {
          damaged_.Add(kEventTableIndex<Memory>, *damage);
          return;
        }
        fn(change);
      });
}

}  // namespace gpuscope::store

#include "analysis/trace_tables.h"

#include <algorithm>
#include <limits>

#include "analysis/activity_names.h"
#include "analysis/duration_stats.h"
#include "analysis/summary_builder.h"

namespace gpuscope::analysis {
namespace {

constexpr double kBytesPerMegabyte = 1e6;  // nsys's MB

// The earliest tracing start of the reports: every Start is relative to it.
model::Timestamp Origin(const Reports& reports) {
  model::Timestamp origin = std::numeric_limits<model::Timestamp>::max();
  for (const store::ReportReader* report : reports) {
    if (report->process().start != 0) origin = std::min(origin, report->process().start);
  }
  return origin == std::numeric_limits<model::Timestamp>::max() ? 0 : origin;
}

std::uint64_t Since(model::Timestamp time, model::Timestamp origin) {
  return time >= origin ? time - origin : 0;
}

// nsys's "NVIDIA H200 (0)".
std::string DeviceLabel(const store::ReportReader& report, std::uint32_t device_id) {
  std::string label;
  for (const store::DeviceInfo& device : report.devices()) {
    if (device.record.id == device_id) label = device.name + " ";
  }
  label.append("(").append(std::to_string(device_id)).append(")");
  return label;
}

// A table's rows in its order (start, then the order they were offered: rows of several
// reports merge into one order), keeping only the earliest `limit` and counting the others.
// A row's cells are built only when it is kept, so that memory follows the rows kept, not
// the rows the reports hold (`gpuscope report` embeds a few thousand of millions).
class EarliestRows {
 public:
  explicit EarliestRows(std::uint64_t limit) : limit_(limit) {}

  // Offers a row starting at `start`; `cells()` builds its cells if it is kept.
  template <typename Cells>
  void Offer(model::Timestamp start, Cells cells) {
    const Key key{start, offered_++};
    if (rows_.size() >= limit_) {
      // Full: a row is kept only in place of the latest one kept (the heap's front).
      if (rows_.empty() || !(key < rows_.front().key)) return;
      std::pop_heap(rows_.begin(), rows_.end(), Earlier);
      rows_.pop_back();
    }
    rows_.push_back({key, cells()});
    std::push_heap(rows_.begin(), rows_.end(), Earlier);
  }

  std::uint64_t offered() const { return offered_; }

  // `table` with the rows kept, in order.
  StatsTable Into(StatsTable table) && {
    std::sort(rows_.begin(), rows_.end(), Earlier);
    table.rows.reserve(rows_.size());
    for (Row& row : rows_) table.rows.push_back(std::move(row.cells));
    return table;
  }

 private:
  struct Key {
    model::Timestamp start;
    std::uint64_t offered;  // ties on start keep the order rows were offered in
    bool operator<(const Key& other) const {
      return start != other.start ? start < other.start : offered < other.offered;
    }
  };
  struct Row {
    Key key;
    std::vector<StatsCell> cells;
  };
  static bool Earlier(const Row& a, const Row& b) { return a.key < b.key; }

  std::uint64_t limit_;
  std::uint64_t offered_ = 0;
  std::vector<Row> rows_;  // a max-heap on key while rows are offered
};

// The cells of a copy or memset from Bytes (MB) to DstMemKd.
void AppendMemoryCells(std::vector<StatsCell>& cells, std::uint64_t bytes,
                       model::Timestamp duration, StatsCell source, StatsCell destination) {
  double megabytes = static_cast<double>(bytes) / kBytesPerMegabyte;
  cells.push_back(DecimalCell(megabytes));
  cells.push_back(duration > 0 ? DecimalCell(megabytes * 1e9 / static_cast<double>(duration))
                               : EmptyCell());
  cells.push_back(std::move(source));
  cells.push_back(std::move(destination));
}

void AppendPlaceCells(std::vector<StatsCell>& cells, const store::ReportReader& report,
                      std::uint32_t device, std::uint32_t context, std::uint32_t stream) {
  cells.push_back(TextCell(DeviceLabel(report, device)));
  cells.push_back(IntegerCell(context));
  cells.push_back(EmptyCell());  // GreenCtx: green contexts are not recorded
  cells.push_back(IntegerCell(stream));
}

std::vector<StatsCell> Leading(model::Timestamp start, model::Timestamp end,
                               model::Timestamp origin, std::uint32_t correlation_id) {
  return {IntegerCell(Since(start, origin)), IntegerCell(end - start), IntegerCell(correlation_id)};
}

void AppendEmpty(std::vector<StatsCell>& cells, int count) {
  for (int i = 0; i < count; ++i) cells.push_back(EmptyCell());
}

}  // namespace

namespace {

StatusOr<StatsTable> GpuTraceRows(const Reports& reports, EarliestRows& rows) {
  StatsTable table{"CUDA GPU Trace", "cuda_gpu_trace", "CUDA GPU trace data", {}, {}};
  table.columns = {{"Start (ns)", ColumnKind::kInteger},
                   {"Duration (ns)", ColumnKind::kInteger},
                   {"CorrId", ColumnKind::kInteger},
                   {"GrdX", ColumnKind::kInteger},
                   {"GrdY", ColumnKind::kInteger},
                   {"GrdZ", ColumnKind::kInteger},
                   {"BlkX", ColumnKind::kInteger},
                   {"BlkY", ColumnKind::kInteger},
                   {"BlkZ", ColumnKind::kInteger},
                   {"Reg/Trd", ColumnKind::kInteger},
                   {"StcSMem (MB)", ColumnKind::kMegabytes},
                   {"DymSMem (MB)", ColumnKind::kMegabytes},
                   {"Bytes (MB)", ColumnKind::kMegabytes},
                   {"Throughput (MB/s)", ColumnKind::kMegabytes},
                   {"SrcMemKd", ColumnKind::kText},
                   {"DstMemKd", ColumnKind::kText},
                   {"Device", ColumnKind::kText},
                   {"Ctx", ColumnKind::kInteger},
                   {"GreenCtx", ColumnKind::kInteger},
                   {"Strm", ColumnKind::kInteger},
                   {"Name", ColumnKind::kText}};
  model::Timestamp origin = Origin(reports);
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachKernel([&](const store::KernelRow& row) {
      const model::KernelRecord& k = row.record;
      if (!HasTimestamps(k.start, k.end)) return true;
      rows.Offer(k.start, [&] {
        std::vector<StatsCell> cells = Leading(k.start, k.end, origin, k.correlation_id);
        for (std::int32_t dim : {k.grid_x, k.grid_y, k.grid_z, k.block_x, k.block_y, k.block_z}) {
          cells.push_back(IntegerCell(static_cast<std::uint64_t>(std::max(dim, 0))));
        }
        cells.push_back(IntegerCell(k.registers_per_thread));
        cells.push_back(DecimalCell(std::max(k.static_shared_memory, 0) / kBytesPerMegabyte));
        cells.push_back(DecimalCell(std::max(k.dynamic_shared_memory, 0) / kBytesPerMegabyte));
        AppendEmpty(cells, 4);
        AppendPlaceCells(cells, *report, k.device_id, k.context_id, k.stream_id);
        cells.push_back(TextCell(std::string(row.demangled_name)));
        return cells;
      });
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachMemcpy([&](const model::MemcpyRecord& c) {
      if (!HasTimestamps(c.start, c.end)) return true;
      rows.Offer(c.start, [&] {
        std::vector<StatsCell> cells = Leading(c.start, c.end, origin, c.correlation_id);
        AppendEmpty(cells, 9);
        AppendMemoryCells(cells, c.bytes, c.end - c.start,
                          TextCell(std::string(MemoryKindName(c.src_kind))),
                          TextCell(std::string(MemoryKindName(c.dst_kind))));
        AppendPlaceCells(cells, *report, c.device_id, c.context_id, c.stream_id);
        cells.push_back(TextCell(std::string(NsysCopyName(c.copy_kind))));
        return cells;
      });
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachMemset([&](const model::MemsetRecord& m) {
      if (!HasTimestamps(m.start, m.end)) return true;
      rows.Offer(m.start, [&] {
        std::vector<StatsCell> cells = Leading(m.start, m.end, origin, m.correlation_id);
        AppendEmpty(cells, 9);
        AppendMemoryCells(cells, m.bytes, m.end - m.start,
                          TextCell(std::string(MemoryKindName(m.memory_kind))), EmptyCell());
        AppendPlaceCells(cells, *report, m.device_id, m.context_id, m.stream_id);
        cells.push_back(TextCell(std::string(kMemsetName)));
        return cells;
      });
      return true;
    }));
  }
  return table;
}

StatusOr<StatsTable> ApiTraceRows(const Reports& reports, EarliestRows& rows) {
  StatsTable table{"CUDA API Trace", "cuda_api_trace", "CUDA API trace data", {}, {}};
  table.columns = {{"Start (ns)", ColumnKind::kInteger}, {"Duration (ns)", ColumnKind::kInteger},
                   {"Name", ColumnKind::kText},          {"Result", ColumnKind::kInteger},
                   {"CorrID", ColumnKind::kInteger},     {"Pid", ColumnKind::kInteger},
                   {"Tid", ColumnKind::kInteger},        {"T-Pri", ColumnKind::kInteger},
                   {"Thread Name", ColumnKind::kText}};
  model::Timestamp origin = Origin(reports);
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachApiCall([&](const store::ApiCallRow& row) {
      const model::ApiCallRecord& a = row.record;
      if (!IsSummarizedApiCall(row) || !HasTimestamps(a.start, a.end)) return true;
      rows.Offer(a.start, [&] {
        return std::vector<StatsCell>{IntegerCell(Since(a.start, origin)),
                                      IntegerCell(a.end - a.start),
                                      TextCell(std::string(a.name)),
                                      IntegerCell(static_cast<std::uint32_t>(a.return_value)),
                                      IntegerCell(a.correlation_id),
                                      IntegerCell(a.process_id),
                                      IntegerCell(a.thread_id),
                                      EmptyCell(),
                                      EmptyCell()};
      });
      return true;
    }));
  }
  return table;
}

// The table of `build` with the earliest `max_rows` rows; `cut` (when given) says how many
// of how many.
StatusOr<StatsTable> Earliest(StatusOr<StatsTable> (*build)(const Reports&, EarliestRows&),
                              const Reports& reports, std::uint64_t max_rows, TraceTableCut* cut) {
  EarliestRows rows(max_rows);
  StatusOr<StatsTable> table = build(reports, rows);
  if (!table.ok()) return table;
  const std::uint64_t total = rows.offered();
  StatsTable built = std::move(rows).Into(std::move(table.value()));
  if (cut != nullptr) *cut = {built.rows.size(), total};
  return built;
}

}  // namespace

StatusOr<StatsTable> BuildGpuTraceTable(const Reports& reports) {
  return Earliest(GpuTraceRows, reports, std::numeric_limits<std::uint64_t>::max(), nullptr);
}

StatusOr<StatsTable> BuildApiTraceTable(const Reports& reports) {
  return Earliest(ApiTraceRows, reports, std::numeric_limits<std::uint64_t>::max(), nullptr);
}

bool IsTraceTable(std::string_view name) {
  return name == "cuda_gpu_trace" || name == "cuda_api_trace";
}

StatusOr<StatsTable> BuildEarliestTraceRows(std::string_view name, const Reports& reports,
                                            std::uint64_t max_rows, TraceTableCut& cut) {
  if (!IsTraceTable(name)) return Status::Error("not a trace table: " + std::string(name));
  GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
  return Earliest(name == "cuda_gpu_trace" ? GpuTraceRows : ApiTraceRows, reports, max_rows, &cut);
}

}  // namespace gpuscope::analysis

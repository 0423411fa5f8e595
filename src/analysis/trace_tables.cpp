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

// A row with the start it sorts by (rows of several reports are merged into one order).
struct TimedRow {
  model::Timestamp start;
  std::vector<StatsCell> cells;
};

StatsTable Sorted(StatsTable table, std::vector<TimedRow> rows) {
  std::stable_sort(rows.begin(), rows.end(),
                   [](const TimedRow& a, const TimedRow& b) { return a.start < b.start; });
  for (TimedRow& row : rows) table.rows.push_back(std::move(row.cells));
  return table;
}

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

StatusOr<StatsTable> BuildGpuTraceTable(const Reports& reports) {
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
  std::vector<TimedRow> rows;
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachKernel([&](const store::KernelRow& row) {
      const model::KernelRecord& k = row.record;
      if (!HasTimestamps(k.start, k.end)) return true;
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
      rows.push_back({k.start, std::move(cells)});
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachMemcpy([&](const model::MemcpyRecord& c) {
      if (!HasTimestamps(c.start, c.end)) return true;
      std::vector<StatsCell> cells = Leading(c.start, c.end, origin, c.correlation_id);
      AppendEmpty(cells, 9);
      AppendMemoryCells(cells, c.bytes, c.end - c.start,
                        TextCell(std::string(MemoryKindName(c.src_kind))),
                        TextCell(std::string(MemoryKindName(c.dst_kind))));
      AppendPlaceCells(cells, *report, c.device_id, c.context_id, c.stream_id);
      cells.push_back(TextCell(std::string(NsysCopyName(c.copy_kind))));
      rows.push_back({c.start, std::move(cells)});
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachMemset([&](const model::MemsetRecord& m) {
      if (!HasTimestamps(m.start, m.end)) return true;
      std::vector<StatsCell> cells = Leading(m.start, m.end, origin, m.correlation_id);
      AppendEmpty(cells, 9);
      AppendMemoryCells(cells, m.bytes, m.end - m.start,
                        TextCell(std::string(MemoryKindName(m.memory_kind))), EmptyCell());
      AppendPlaceCells(cells, *report, m.device_id, m.context_id, m.stream_id);
      cells.push_back(TextCell(std::string(kMemsetName)));
      rows.push_back({m.start, std::move(cells)});
      return true;
    }));
  }
  return Sorted(std::move(table), std::move(rows));
}

StatusOr<StatsTable> BuildApiTraceTable(const Reports& reports) {
  StatsTable table{"CUDA API Trace", "cuda_api_trace", "CUDA API trace data", {}, {}};
  table.columns = {{"Start (ns)", ColumnKind::kInteger}, {"Duration (ns)", ColumnKind::kInteger},
                   {"Name", ColumnKind::kText},          {"Result", ColumnKind::kInteger},
                   {"CorrID", ColumnKind::kInteger},     {"Pid", ColumnKind::kInteger},
                   {"Tid", ColumnKind::kInteger},        {"T-Pri", ColumnKind::kInteger},
                   {"Thread Name", ColumnKind::kText}};
  model::Timestamp origin = Origin(reports);
  std::vector<TimedRow> rows;
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachApiCall([&](const store::ApiCallRow& row) {
      const model::ApiCallRecord& a = row.record;
      if (!IsSummarizedApiCall(row) || !HasTimestamps(a.start, a.end)) return true;
      rows.push_back(
          {a.start,
           {IntegerCell(Since(a.start, origin)), IntegerCell(a.end - a.start),
            TextCell(std::string(a.name)), IntegerCell(static_cast<std::uint32_t>(a.return_value)),
            IntegerCell(a.correlation_id), IntegerCell(a.process_id), IntegerCell(a.thread_id),
            EmptyCell(), EmptyCell()}});
      return true;
    }));
  }
  return Sorted(std::move(table), std::move(rows));
}

}  // namespace gpuscope::analysis

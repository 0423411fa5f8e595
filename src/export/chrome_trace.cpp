#include "export/chrome_trace.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/activity_names.h"
#include "analysis/gpu_metric_samples.h"
#include "analysis/ranks/rank_placement.h"
#include "export/json_stream.h"
#include "store/correlation_ids.h"
#include "store/gpu_metric_tables.h"
#include "util/saturating.h"

namespace gpuscope::exporter {
namespace {

// Trace pids of GPUs sit above Linux's largest pid (2^22), so they never collide with a
// traced process; each report gets its own block of 256 device slots.
constexpr std::int64_t kGpuPidBase = std::int64_t{1} << 23;
// The thread of NVTX start/end ranges (async slices need a tid to sit under).
constexpr std::int64_t kStartEndRangesTid = 0x7FFFFFF0;

bool Contains(const std::vector<std::uint32_t>& sorted, std::uint32_t id) {
  return std::binary_search(sorted.begin(), sorted.end(), id);
}

// Where one report's events go: its clock offset (added to its times: the aligned axis of
// several ranks, 0 otherwise), its process label (empty: the command line and pid) and its
// place among the processes.
struct Placement {
  std::int64_t offset = 0;
  std::string label;
  std::size_t sort_position = 0;
};

// Writes one report's events. `index` is the report's position, which keeps flow ids and
// GPU pids of several reports apart.
class ReportExporter {
 public:
  ReportExporter(const store::ReportReader& report, std::size_t index, std::int64_t pid,
                 Placement placement, std::int64_t origin, JsonStream& json,
                 ChromeTraceStats& stats)
      : report_(report),
        index_(index),
        pid_(pid),
        placement_(std::move(placement)),
        origin_(origin),
        json_(json),
        stats_(stats) {}

  Status Write() {
    // Flows need both ends: collect the correlation ids of GPU work and of API calls first.
    StatusOr<std::vector<std::uint32_t>> gpu_correlations = store::GpuCorrelationIds(report_);
    if (!gpu_correlations.ok()) return gpu_correlations.status();
    gpu_correlations_ = std::move(gpu_correlations.value());
    StatusOr<std::vector<std::uint32_t>> api_correlations = store::ApiCorrelationIds(report_);
    if (!api_correlations.ok()) return api_correlations.status();
    api_correlations_ = std::move(api_correlations.value());

    Metadata(pid_, std::nullopt, "process_name", ProcessLabel());
    Metadata(pid_, std::nullopt, "process_sort_index",
             std::to_string(placement_.sort_position * 1000), true);
    for (const store::DeviceInfo& device : report_.devices()) NameGpu(device.record.id);

    GPUSCOPE_RETURN_IF_ERROR(report_.ForEachApiCall([&](const store::ApiCallRow& row) {
      const model::ApiCallRecord& call = row.record;
      if (!Timed(call.start, call.end)) return true;
      NameThread(call.thread_id);
      Slice("cuda_api", call.name, pid_, call.thread_id, call.start, call.end);
      json_.Raw(",\"args\":{\"correlation_id\":")
          .UInt(call.correlation_id)
          .Raw(",\"return_value\":")
          .Int(call.return_value)
          .Raw(",\"nested\":")
          .Raw(row.nested_in_runtime ? "true" : "false")
          .Raw("}}");
      if (Contains(gpu_correlations_, call.correlation_id)) {
        Flow("s", pid_, call.thread_id, call.start, call.correlation_id);
      }
      return true;
    }));
    // Profiler time (gpuscope's replay of profiled launches, CUPTI's own overheads) on the
    // thread it delayed, under its own category: never the program's API time.
    GPUSCOPE_RETURN_IF_ERROR(report_.ForEachOverhead([&](const model::OverheadRecord& o) {
      if (!Timed(o.start, o.end)) return true;
      NameThread(o.thread_id);
      Slice("profiler", o.name, pid_, o.thread_id, o.start, o.end);
      json_.Raw(",\"args\":{\"overhead_kind\":").UInt(o.overhead_kind).Raw("}}");
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(report_.ForEachKernel([&](const store::KernelRow& row) {
      const model::KernelRecord& k = row.record;
      if (!Timed(k.start, k.end)) return true;
      std::int64_t gpu = GpuStream(k.device_id, k.stream_id);
      Slice("kernel", row.demangled_name, gpu, k.stream_id, k.start, k.end);
      json_.Raw(",\"args\":{\"correlation_id\":")
          .UInt(k.correlation_id)
          .Raw(",\"grid\":[")
          .Int(k.grid_x)
          .Raw(",")
          .Int(k.grid_y)
          .Raw(",")
          .Int(k.grid_z)
          .Raw("],\"block\":[")
          .Int(k.block_x)
          .Raw(",")
          .Int(k.block_y)
          .Raw(",")
          .Int(k.block_z)
          .Raw("],\"registers_per_thread\":")
          .UInt(k.registers_per_thread)
          .Raw(",\"static_shared_memory\":")
          .Int(k.static_shared_memory)
          .Raw(",\"dynamic_shared_memory\":")
          .Int(k.dynamic_shared_memory);
      // The name once per event: a name with no mangled form (a C or Triton kernel, or one
      // shortened on read) is not written twice.
      if (k.mangled_name != row.demangled_name) {
        json_.Raw(",\"mangled_name\":").String(k.mangled_name);
      }
      json_.Raw("}}");
      FlowEnd(gpu, k.stream_id, k.start, k.correlation_id);
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(report_.ForEachMemcpy([&](const model::MemcpyRecord& m) {
      if (!Timed(m.start, m.end)) return true;
      std::int64_t gpu = GpuStream(m.device_id, m.stream_id);
      Slice("memcpy", analysis::NvprofCopyName(m.copy_kind), gpu, m.stream_id, m.start, m.end);
      std::uint32_t correlation =
          m.runtime_correlation_id ? m.runtime_correlation_id : m.correlation_id;
      json_.Raw(",\"args\":{\"correlation_id\":")
          .UInt(correlation)
          .Raw(",\"bytes\":")
          .UInt(m.bytes)
          .Raw(",\"async\":")
          .Raw(m.is_async ? "true" : "false")
          .Raw("}}");
      FlowEnd(gpu, m.stream_id, m.start, correlation);
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(report_.ForEachMemset([&](const model::MemsetRecord& m) {
      if (!Timed(m.start, m.end)) return true;
      std::int64_t gpu = GpuStream(m.device_id, m.stream_id);
      Slice("memset", "[CUDA memset]", gpu, m.stream_id, m.start, m.end);
      json_.Raw(",\"args\":{\"correlation_id\":")
          .UInt(m.correlation_id)
          .Raw(",\"bytes\":")
          .UInt(m.bytes)
          .Raw(",\"value\":")
          .UInt(m.value)
          .Raw("}}");
      FlowEnd(gpu, m.stream_id, m.start, m.correlation_id);
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(report_.ForEachNvtx([&](const model::NvtxRecord& n) {
      WriteNvtx(n);
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(WriteMemoryCounter());
    GPUSCOPE_RETURN_IF_ERROR(WriteGpuMetricCounters());
    return json_.Flush();
  }

 private:
  bool Timed(model::Timestamp start, model::Timestamp end) {
    if (start != 0 && end >= start) return true;
    ++stats_.skipped_untimed;
    return false;
  }

  std::string ProcessLabel() const {
    if (!placement_.label.empty()) return placement_.label;
    const store::ProcessInfo& process = report_.process();
    std::string label = process.command_line.empty() ? "process" : process.command_line;
    return label + " (pid " + std::to_string(process.pid) + ")";
  }

  // Every event but the first is preceded by a comma: the caller opened the array. An event
  // whose times were clamped (Placed, before its Begin) is counted here, once.
  void Begin() {
    json_.Raw(stats_.events++ == 0 ? "\n" : ",\n");
    if (clamped_) ++stats_.clamped_times;
    clamped_ = false;
  }

  void Metadata(std::int64_t pid, std::optional<std::int64_t> tid, std::string_view name,
                const std::string& value, bool numeric = false) {
    Begin();
    json_.Raw("{\"ph\":\"M\",\"name\":")
        .String(name)
        .Raw(",\"pid\":")
        .Int(pid)
        .Raw(",\"tid\":")
        .Int(tid.value_or(0))
        .Raw(",\"args\":{");
    if (numeric) {
      json_.Raw("\"sort_index\":").Raw(value);
    } else {
      json_.Raw("\"name\":").String(value);
    }
    json_.Raw("}}");
  }

  void NameThread(std::uint32_t tid) {
    if (!named_threads_.insert(tid).second) return;
    Metadata(pid_, tid, "thread_name", "Thread " + std::to_string(tid));
  }

  std::int64_t GpuPid(std::uint32_t device) {
    return kGpuPidBase + static_cast<std::int64_t>(index_) * 256 + (device % 256);
  }

  std::int64_t NameGpu(std::uint32_t device) {
    std::int64_t pid = GpuPid(device);
    if (!named_gpus_.insert(device).second) return pid;
    std::string name = "GPU " + std::to_string(device);
    for (const store::DeviceInfo& info : report_.devices()) {
      if (info.record.id == device) name += " (" + info.name + ")";
    }
    Metadata(pid, std::nullopt, "process_name",
             name + " - " +
                 (placement_.label.empty() ? "pid " + std::to_string(report_.process().pid)
                                           : placement_.label));
    Metadata(pid, std::nullopt, "process_sort_index",
             std::to_string(placement_.sort_position * 1000 + 1 + device), true);
    return pid;
  }

  std::int64_t GpuStream(std::uint32_t device, std::uint32_t stream) {
    std::int64_t pid = NameGpu(device);
    if (named_streams_.insert({device, stream}).second) {
      Metadata(pid, stream, "thread_name", "Stream " + std::to_string(stream));
    }
    return pid;
  }

  // Opens an X event; the caller appends ",\"args\":{...}}".
  void Slice(std::string_view category, std::string_view name, std::int64_t pid, std::int64_t tid,
             model::Timestamp start, model::Timestamp end) {
    // Both ends placed, so that a clamped end never lies before its start.
    const std::int64_t ts = Placed(start);
    const std::int64_t duration = std::max<std::int64_t>(0, SaturatingSub(Placed(end), ts));
    Begin();
    json_.Raw("{\"ph\":\"X\",\"cat\":\"")
        .Raw(category)
        .Raw("\",\"name\":")
        .String(name)
        .Raw(",\"pid\":")
        .Int(pid)
        .Raw(",\"tid\":")
        .Int(tid)
        .Raw(",\"ts\":")
        .Micros(ts)
        .Raw(",\"dur\":")
        .Micros(duration);
  }

  void Flow(std::string_view phase, std::int64_t pid, std::int64_t tid, model::Timestamp ts,
            std::uint32_t correlation) {
    const std::int64_t at = Placed(ts);
    Begin();
    json_.Raw("{\"ph\":\"")
        .Raw(phase)
        .Raw("\",\"cat\":\"correlation\",\"name\":\"launch\"")
        .Raw(",\"id\":")
        .UInt((static_cast<std::uint64_t>(index_) << 32) | correlation)
        .Raw(",\"pid\":")
        .Int(pid)
        .Raw(",\"tid\":")
        .Int(tid)
        .Raw(",\"ts\":")
        .Micros(at);
    if (phase == "f") json_.Raw(",\"bp\":\"e\"");
    json_.Raw("}");
  }

  void FlowEnd(std::int64_t pid, std::int64_t tid, model::Timestamp ts, std::uint32_t corr) {
    if (Contains(api_correlations_, corr)) Flow("f", pid, tid, ts, corr);
  }

  void WriteNvtx(const model::NvtxRecord& n) {
    if (n.start == 0) {
      ++stats_.skipped_untimed;
      return;
    }
    NameThread(n.thread_id);
    auto args = [&] {
      json_.Raw(",\"args\":{\"domain\":")
          .String(n.domain)
          .Raw(",\"category\":")
          .UInt(n.category)
          .Raw(",\"color\":")
          .UInt(n.color)
          .Raw("}}");
    };
    if (n.kind == model::NvtxKind::kMark) {
      const std::int64_t at = Placed(n.start);
      Begin();
      json_.Raw("{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"nvtx\",\"name\":")
          .String(n.name)
          .Raw(",\"pid\":")
          .Int(pid_)
          .Raw(",\"tid\":")
          .Int(n.thread_id)
          .Raw(",\"ts\":")
          .Micros(at);
      args();
      return;
    }
    if (!Timed(n.start, n.end)) return;
    if (n.kind == model::NvtxKind::kPushPopRange) {
      Slice("nvtx", n.name, pid_, n.thread_id, n.start, n.end);
      args();
      return;
    }
    // Start/end ranges may overlap without nesting: async begin/end pairs keep them apart.
    if (named_threads_.insert(static_cast<std::uint32_t>(kStartEndRangesTid)).second) {
      Metadata(pid_, kStartEndRangesTid, "thread_name", "NVTX start/end ranges");
    }
    for (const char* phase : {"b", "e"}) {
      const std::int64_t at = Placed(phase[0] == 'b' ? n.start : n.end);
      Begin();
      json_.Raw("{\"ph\":\"")
          .Raw(phase)
          .Raw("\",\"cat\":\"nvtx\",\"name\":")
          .String(n.name)
          .Raw(",\"id\":")
          .UInt((static_cast<std::uint64_t>(index_) << 32) | n.id)
          .Raw(",\"pid\":")
          .Int(pid_)
          .Raw(",\"tid\":")
          .Int(kStartEndRangesTid)
          .Raw(",\"ts\":")
          .Micros(at);
      args();
    }
  }

  // Device memory in use after each allocation or free, per GPU. A free whose record has
  // no size takes it from the matching allocation.
  Status WriteMemoryCounter() {
    std::map<std::uint32_t, std::int64_t> in_use;
    std::unordered_map<std::uint64_t, std::uint64_t> live;  // address -> bytes
    return report_.ForEachMemory([&](const model::MemoryRecord& m) {
      if (m.timestamp == 0) {
        ++stats_.skipped_untimed;
        return true;
      }
      std::uint64_t bytes = m.bytes;
      // Saturating: sizes come from the report (2^62-byte allocations once overflowed).
      std::int64_t& device_in_use = in_use[m.device_id];
      if (m.op == model::MemoryOp::kAlloc) {
        live[m.address] = bytes;
        device_in_use = SaturatingAdd(device_in_use, SaturatingSigned(bytes));
      } else {
        auto found = live.find(m.address);
        if (bytes == 0 && found != live.end()) bytes = found->second;
        if (found != live.end()) live.erase(found);
        device_in_use = SaturatingSub(device_in_use, SaturatingSigned(bytes));
      }
      // Named first: naming a GPU the report does not list writes metadata events, which
      // must not land inside this one.
      std::int64_t pid = NameGpu(m.device_id);
      const std::int64_t at = Placed(m.timestamp);
      Begin();
      json_.Raw("{\"ph\":\"C\",\"name\":\"Device memory\",\"pid\":")
          .Int(pid)
          .Raw(",\"tid\":0,\"ts\":")
          .Micros(at)
          .Raw(",\"args\":{\"bytes\":")
          .Int(in_use[m.device_id])
          .Raw("}}");
      return true;
    });
  }

  // `run --gpu-metrics`: one counter track per metric under its GPU ("SM Active (%)"), a value
  // at each sample's start; bandwidths in GB/s. A NaN (CUPTI could not evaluate it) is left out,
  // and so is a value that cannot be true (counted).
  Status WriteGpuMetricCounters() {
    StatusOr<std::vector<store::StoredGpuMetric>> metrics = store::ReadGpuMetrics(report_);
    if (!metrics.ok()) return metrics.status();
    if (metrics->empty()) return Status();
    std::map<std::uint32_t, std::vector<std::pair<std::string, double>>> tracks;  // name, scale
    for (const store::StoredGpuMetric& metric : *metrics) {
      const bool bytes = metric.unit == "byte/second";
      tracks[metric.device_id].emplace_back(
          metric.label + " (" + (bytes ? std::string("GB/s") : metric.unit) + ")",
          bytes ? 1e-9 : 1.0);
    }
    for (const auto& [device, names] : tracks) NameGpu(device);
    return analysis::ForEachPossibleGpuMetricSample(
        report_, *metrics,
        [&](const store::StoredGpuMetricSample& sample) {
          const auto& names = tracks[sample.device_id];
          const std::int64_t pid = GpuPid(sample.device_id);
          for (std::size_t m = 0; m < sample.values.size() && m < names.size(); ++m) {
            if (std::isnan(sample.values[m])) continue;
            const std::int64_t at = Placed(sample.start);
            Begin();
            json_.Raw("{\"ph\":\"C\",\"cat\":\"gpu_metrics\",\"name\":")
                .String(names[m].first)
                .Raw(",\"pid\":")
                .Int(pid)
                .Raw(",\"tid\":0,\"ts\":")
                .Micros(at)
                .Raw(",\"args\":{\"value\":")
                .Number(sample.values[m] * names[m].second)
                .Raw("}}");
          }
          return true;
        },
        stats_.impossible_gpu_metric_values);
  }

  // On the trace's axis: the report's time moved by its clock offset, from the origin.
  // Times come from the file: a damaged one (a time base of INT64_MAX with a process start
  // of INT64_MIN) may lie further from the origin than 64 bits of nanoseconds hold, and
  // signed overflow is undefined. Such a time sticks at the axis's end (util/saturating.h:
  // it prints as absurd as it was, never wrapped around to the other end) and the event it
  // belongs to is counted (clamped_, ChromeTraceStats::clamped_times).
  std::int64_t Placed(model::Timestamp t) {
    // The unsigned time read as signed, as everywhere on this axis (the reader's times are
    // absolute CUPTI nanoseconds, far below INT64_MAX).
    const auto time = static_cast<std::int64_t>(t);
    std::int64_t moved = 0, placed = 0;
    if (__builtin_add_overflow(time, placement_.offset, &moved)) {
      clamped_ = true;
      moved = SaturatingAdd(time, placement_.offset);
    }
    if (__builtin_sub_overflow(moved, origin_, &placed)) {
      clamped_ = true;
      placed = SaturatingSub(moved, origin_);
    }
    return placed;
  }

  const store::ReportReader& report_;
  std::size_t index_;
  std::int64_t pid_;
  Placement placement_;
  std::int64_t origin_;
  JsonStream& json_;
  ChromeTraceStats& stats_;
  std::vector<std::uint32_t> gpu_correlations_, api_correlations_;
  std::set<std::uint32_t> named_threads_;
  std::set<std::uint32_t> named_gpus_;
  std::set<std::pair<std::uint32_t, std::uint32_t>> named_streams_;
  bool clamped_ = false;  // a time of the event being written was clamped (Placed)
};

// The earliest report start on the trace's axis (each report's start moved by its offset).
std::int64_t TraceOrigin(std::span<const store::ReportReader* const> reports,
                         const std::vector<Placement>& placements) {
  std::optional<std::int64_t> origin;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const store::ReportReader* report = reports[i];
    model::Timestamp start =
        report->process().start ? report->process().start : report->time_base();
    if (start == 0) continue;
    // Saturating: a damaged start must not overflow (the events' times are then clamped
    // relative to it, ReportExporter::Placed).
    std::int64_t placed = SaturatingAdd(static_cast<std::int64_t>(start), placements[i].offset);
    if (!origin || placed < *origin) origin = placed;
  }
  return origin.value_or(0);
}

// Reports that carry ranks go on the aligned axis, in rank order, labelled by rank; the
// others in the order given, on their own clocks, labelled by command line.
StatusOr<std::vector<Placement>> PlaceReports(std::span<const store::ReportReader* const> reports,
                                              std::vector<analysis::ranks::RankClock>& clocks) {
  std::vector<Placement> placements(reports.size());
  for (std::size_t i = 0; i < reports.size(); ++i) placements[i].sort_position = i;
  analysis::Reports list(reports.begin(), reports.end());
  StatusOr<std::vector<analysis::ranks::RankPlacement>> ranked =
      analysis::ranks::PlaceRankedReports(list);
  if (!ranked.ok()) return ranked.status();
  for (std::size_t i = 0; i < ranked->size(); ++i) {
    const analysis::ranks::RankPlacement& rank = ranked.value()[i];
    placements[i] = {rank.clock.offset_ns, rank.label, rank.position};
    clocks.push_back(rank.clock);
  }
  std::sort(clocks.begin(), clocks.end(), [&](const auto& a, const auto& b) {
    return placements[a.index].sort_position < placements[b.index].sort_position;
  });
  return placements;
}

// otherData.clock_alignment: how each rank was moved, so that the shift is never hidden.
void WriteClockAlignment(const std::vector<analysis::ranks::RankClock>& clocks, JsonStream& json) {
  json.Raw(",\"clock_alignment\":[");
  for (std::size_t i = 0; i < clocks.size(); ++i) {
    const analysis::ranks::RankClock& clock = clocks[i];
    json.Raw(i ? ",{" : "{").Raw("\"rank\":");
    if (clock.rank) {
      json.Int(*clock.rank);
    } else {
      json.Raw("null");
    }
    json.Raw(",\"host\":")
        .String(clock.host)
        .Raw(",\"pid\":")
        .UInt(clock.pid)
        .Raw(",\"offset_ns\":")
        .Int(clock.offset_ns)
        .Raw(",\"error_ns\":")
        .Int(clock.error_ns)
        .Raw(",\"method\":")
        .String(clock.method)
        .Raw("}");
  }
  json.Raw("]");
}

}  // namespace

StatusOr<ChromeTraceStats> WriteChromeTrace(std::span<const store::ReportReader* const> reports,
                                            std::ostream& out) {
  ChromeTraceStats stats;
  std::vector<analysis::ranks::RankClock> clocks;
  StatusOr<std::vector<Placement>> placements = PlaceReports(reports, clocks);
  if (!placements.ok()) return placements.status();
  JsonStream json(out);
  const std::int64_t origin = TraceOrigin(reports, placements.value());
  json.Raw("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
  std::set<std::int64_t> used_pids;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    // Two reports may carry the same pid (two hosts, or pid reuse): keep their tracks apart.
    std::int64_t pid = reports[i]->process().pid;
    while (!used_pids.insert(pid).second) pid += kGpuPidBase * 2;
    ReportExporter exporter(*reports[i], i, pid, placements.value()[i], origin, json, stats);
    GPUSCOPE_RETURN_IF_ERROR(exporter.Write());
  }
  json.Raw("\n],\"otherData\":{\"generator\":\"gpuscope\",\"time_origin_ns\":")
      .Int(origin)
      .Raw(",\"skipped_untimed_events\":")
      .UInt(stats.skipped_untimed);
  if (!clocks.empty()) WriteClockAlignment(clocks, json);
  json.Raw("}}\n");
  GPUSCOPE_RETURN_IF_ERROR(json.Flush());
  return stats;
}

}  // namespace gpuscope::exporter

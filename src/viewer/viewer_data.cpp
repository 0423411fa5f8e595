#include "viewer/viewer_data.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "analysis/call_sites.h"
#include "analysis/collection_warnings.h"
#include "analysis/stats_reports.h"
#include "analysis/value_range.h"
#include "render/escaping.h"
#include "render/stats_report.h"
#include "render/stats_table_format.h"
#include "store/event_attributes.h"
#include "store/kernel_launch_groups.h"
#include "store/stack_tables.h"
#include "store/table_rows.h"
#include "viewer/report_findings.h"

namespace gpuscope::viewer {
namespace {

using render::JsonString;
using store::FieldValue;

std::string JsonValue(const FieldValue& value) {
  switch (value.kind) {
    case FieldValue::Kind::kNull:
      return "null";
    case FieldValue::Kind::kInteger:
      return std::to_string(value.integer);
    case FieldValue::Kind::kReal:
      return render::JsonNumber(value.real);  // an infinite REAL becomes null
    case FieldValue::Kind::kText:
      break;
  }
  return JsonString(value.text);
}

// `,"stack":[frame labels, innermost first],"call_site":i` of an API call's --backtrace stack.
StatusOr<std::string> StackJson(const store::ReportReader& reader, std::uint32_t stack_id) {
  StatusOr<std::vector<store::StoredFrame>> stack = store::ReadStack(reader, stack_id);
  if (!stack.ok()) return stack.status();
  if (stack->empty()) return std::string();
  std::string out = ",\"stack\":[";
  for (std::size_t i = 0; i < stack->size(); ++i) {
    out += (i == 0 ? "" : ",") + JsonString(analysis::FrameLabel((*stack)[i]));
  }
  return out + "],\"call_site\":" + std::to_string(analysis::CallSiteFrame(*stack));
}

store::EventTable TableOf(EventType type) {
  switch (type) {
    case EventType::kKernel:
      return store::EventTable::kKernels;
    case EventType::kMemcpy:
      return store::EventTable::kMemcpys;
    case EventType::kMemset:
      return store::EventTable::kMemsets;
    case EventType::kApi:
      return store::EventTable::kApiCalls;
    case EventType::kNvtx:
    case EventType::kMark:
      break;
  }
  return store::EventTable::kNvtx;
}

struct KernelConfig {
  store::LaunchConfig launch;
  std::int64_t count = 0;  // launches with this configuration
};

struct KernelPage {
  std::string mangled;
  // `timed`: the launches with timestamps, over which total, min and max go. A launch that
  // `gpuscope profile` replayed has a trace record without them (CUPTI does not time the
  // replayed launch), and it is exactly those kernels whose page carries metrics.
  std::int64_t launches = 0, timed = 0, total = 0, min = 0, max = 0;
  std::vector<KernelConfig> configs;
};

// The page's profile fields (sections, findings, roofline, occupancy) come from `profiles`;
// they are empty for a kernel that was not profiled.
std::string KernelPageJson(const std::string& name, const KernelPage& page,
                           const ReportProfiles& profiles) {
  std::string out = "{\"name\":" + JsonString(name) + ",\"mangled\":" + JsonString(page.mangled) +
                    ",\"launches\":" + std::to_string(page.launches) +
                    ",\"total\":" + std::to_string(page.total) +
                    ",\"avg\":" + std::to_string(page.timed ? page.total / page.timed : 0) +
                    ",\"min\":" + std::to_string(page.min) +
                    ",\"max\":" + std::to_string(page.max) +
                    ",\"timed\":" + std::to_string(page.timed) + ",\"configs\":[";
  for (std::size_t i = 0; i < page.configs.size(); ++i) {
    const store::LaunchConfig& c = page.configs[i].launch;
    out += (i ? "," : "");
    out += "{\"grid\":[" + std::to_string(c.grid[0]) + "," + std::to_string(c.grid[1]) + "," +
           std::to_string(c.grid[2]) + "],\"block\":[" + std::to_string(c.block[0]) + "," +
           std::to_string(c.block[1]) + "," + std::to_string(c.block[2]) +
           "],\"registers\":" + std::to_string(c.registers_per_thread) +
           ",\"static_smem\":" + std::to_string(c.static_shared_memory) +
           ",\"dynamic_smem\":" + std::to_string(c.dynamic_shared_memory) +
           ",\"count\":" + std::to_string(page.configs[i].count) + "}";
  }
  out += "]" + profiles.KernelFieldsJson(name, page.mangled) + "}";
  return out;
}

// Kernel pages by demangled name, from the launch groups (optionally of one name).
// Configurations come most-launched first. Read with the reader `lease` lends (or its error).
StatusOr<std::map<std::string, KernelPage>> KernelPages(StatusOr<ReaderPool::Lease> lease,
                                                        const std::string* only) {
  if (!lease.ok()) return lease.status();
  const store::ReportReader& report = **lease;
  std::map<std::string, KernelPage> pages;
  Status read = store::ForEachKernelLaunchGroup(
      report, only ? std::optional<std::string_view>(*only) : std::nullopt,
      [&](const store::KernelLaunchGroup& group) {
        KernelPage& page = pages[std::string(group.name)];
        if (page.mangled.empty()) page.mangled = group.mangled_name;
        if (group.timed > 0) {
          page.min = page.timed ? std::min(page.min, group.min_duration) : group.min_duration;
          page.max = page.timed ? std::max(page.max, group.max_duration) : group.max_duration;
        }
        page.launches += group.launches;
        page.timed += group.timed;
        page.total += group.total_duration;
        page.configs.push_back({group.launch, group.launches});
      });
  if (!read.ok()) return read;
  for (auto& [name, page] : pages) {
    std::stable_sort(
        page.configs.begin(), page.configs.end(),
        [](const KernelConfig& a, const KernelConfig& b) { return a.count > b.count; });
  }
  return pages;
}

struct KernelTotals {
  std::uint64_t count = 0, total = 0;
};

std::unordered_map<std::string_view, KernelTotals> TotalsByName(const TrackIndex& index) {
  std::unordered_map<std::string_view, KernelTotals> totals;
  for (const Track& track : index.tracks()) {
    if (track.kind != "gpu") continue;
    for (const TrackEvent& event : track.events) {
      if (event.type() != EventType::kKernel) continue;
      KernelTotals& t = totals[index.Name(event)];
      ++t.count;
      t.total += event.end - event.start;
    }
  }
  return totals;
}

std::string TotalsJson(const KernelTotals& t) {
  return "{\"count\":" + std::to_string(t.count) + ",\"total\":" + std::to_string(t.total) +
         ",\"avg\":" + std::to_string(t.count ? t.total / t.count : 0) + "}";
}

}  // namespace

StatusOr<std::unique_ptr<ViewerData>> ViewerData::Open(const std::vector<std::string>& paths) {
  std::unique_ptr<ViewerData> data(new ViewerData());
  for (const std::string& path : paths) {
    StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
    if (!reader.ok()) {
      const std::string& message = reader.status().message();
      return Status::Error(message.find(path) != std::string::npos ? message
                                                                   : path + ": " + message);
    }
    StatusOr<std::unique_ptr<TrackIndex>> index = TrackIndex::Build(*reader.value());
    if (!index.ok()) return Status::Error(path + ": " + index.status().message());
    Loaded loaded;
    loaded.name = std::filesystem::path(path).filename().string();
    loaded.readers = std::make_unique<ReaderPool>(std::move(reader.value()));
    loaded.index = std::move(index.value());
    data->reports_.push_back(std::move(loaded));
  }
  // Ranks of one job go on one axis (the page offers it and opens on it). Nothing is served
  // yet, so the readers the reports were opened with are used directly.
  analysis::Reports readers;
  for (const Loaded& loaded : data->reports_) readers.push_back(&loaded.readers->described());
  StatusOr<std::vector<analysis::ranks::RankPlacement>> placements =
      analysis::ranks::PlaceRankedReports(readers);
  if (!placements.ok()) return placements.status();
  data->placements_ = std::move(placements.value());
  return data;
}

StatusOr<ReaderPool::Lease> ViewerData::Borrow(std::size_t report) const {
  StatusOr<ReaderPool::Lease> lease = reports_[report].readers->Borrow();
  if (!lease.ok()) return Status::Error(reports_[report].name + ": " + lease.status().message());
  return lease;
}

std::string ViewerData::ReportJson(std::size_t i) const {
  const store::ReportReader& described = reports_[i].readers->described();
  const TrackIndex& index = *reports_[i].index;
  const store::ProcessInfo& process = described.process();
  // A report whose process never flushed has no end: the last event ends it.
  std::uint64_t end = process.end;
  for (const Track& track : index.tracks()) {
    for (std::uint64_t block_end : track.block_max_end) end = std::max(end, block_end);
    if (!track.counter.empty()) end = std::max(end, track.counter.back().time);
  }
  // The span of GPU activity, where the timeline opens (a program may spend seconds
  // importing before its first kernel).
  std::uint64_t gpu_start = 0, gpu_end = 0;
  for (const Track& track : index.tracks()) {
    if (track.kind != "gpu" || track.events.empty()) continue;
    const std::uint64_t first = track.events.front().start;
    gpu_start = gpu_start == 0 ? first : std::min(gpu_start, first);
    for (std::uint64_t block_end : track.block_max_end) gpu_end = std::max(gpu_end, block_end);
  }
  std::string out =
      "{\"index\":" + std::to_string(i) + ",\"path\":" + JsonString(reports_[i].name) +
      ",\"pid\":" + std::to_string(process.pid) + ",\"hostname\":" + JsonString(process.hostname) +
      ",\"command_line\":" + JsonString(process.command_line) +
      ",\"start\":" + std::to_string(process.start) + ",\"end\":" + std::to_string(end) +
      ",\"gpu\":" +
      (gpu_end > gpu_start
           ? "{\"start\":" + std::to_string(gpu_start) + ",\"end\":" + std::to_string(gpu_end) + "}"
           : std::string("null")) +
      RankJson(i) + ",\"devices\":[";
  for (std::size_t d = 0; d < described.devices().size(); ++d) {
    const store::DeviceInfo& device = described.devices()[d];
    out += (d ? "," : "");
    out += "{\"id\":" + std::to_string(device.record.id) + ",\"name\":" + JsonString(device.name) +
           ",\"cc\":\"" + std::to_string(device.record.compute_major) + "." +
           std::to_string(device.record.compute_minor) +
           "\",\"sms\":" + std::to_string(device.record.num_sms) + "}";
  }
  out += "],\"counts\":{";
  std::vector<std::string> warnings;
  {
    // The counts and the collection warnings query the file: with a reader of this thread's
    // own, given back before the profiles (which may borrow one to load). A report whose file
    // cannot be opened again says so among its warnings.
    StatusOr<ReaderPool::Lease> lease = Borrow(i);
    const char* const kCounted[][2] = {{"kernels", "kernels"},
                                       {"memcpys", "memcpys"},
                                       {"memsets", "memsets"},
                                       {"api_calls", "api_calls"},
                                       {"nvtx", "nvtx"}};
    for (std::size_t c = 0; c < std::size(kCounted); ++c) {
      StatusOr<std::uint64_t> rows =
          lease.ok() ? (**lease).CountRows(kCounted[c][1]) : StatusOr<std::uint64_t>(0);
      out += std::string(c ? "," : "") + "\"" + kCounted[c][0] +
             "\":" + std::to_string(rows.ok() ? rows.value() : 0);
    }
    if (lease.ok()) {
      warnings = analysis::CollectionWarnings(**lease);
      // Names shortened on read (store/report_text.h), as the commands say it.
      if (std::optional<std::string> shortened = analysis::ShortenedTextWarning(**lease)) {
        warnings.push_back(std::move(*shortened));
      }
    } else {
      warnings.push_back(lease.status().message());
    }
  }
  out += "},\"warnings\":[";
  if (index.untimed_events() > 0) {
    warnings.push_back(std::to_string(index.untimed_events()) +
                       " events without timestamps are not on the timeline");
  }
  // Damaged rows are not on the timeline either (store/damaged_rows.h); say how many.
  for (std::string& warning : analysis::SkippedRowWarnings(index.damaged_rows())) {
    warnings.push_back(std::move(warning));
  }
  if (std::optional<std::string> impossible = analysis::ImpossibleValueWarning(
          index.impossible_gpu_metric_values(), analysis::CheckedValues::kGpuMetricSamples)) {
    warnings.push_back(std::move(*impossible));
  }
  // A report whose profiles cannot be read still opens: its timeline does not need them,
  // and its kernel pages say what failed.
  StatusOr<const ReportProfiles*> profiles = Profiles(i);
  // Metric values the kernel pages leave out, as the commands say it.
  if (profiles.ok()) {
    for (std::string& impossible : profiles.value()->ImpossibleValueWarnings()) {
      warnings.push_back(std::move(impossible));
    }
  }
  for (std::size_t w = 0; w < warnings.size(); ++w) {
    out += (w ? "," : "") + JsonString(warnings[w]);
  }
  out += "],\"has_metrics\":";
  out += profiles.ok() && profiles.value()->HasMetrics() ? "true" : "false";
  out += ",\"profiled_kernels\":[";
  if (profiles.ok()) {
    std::vector<std::string> names = profiles.value()->KernelNames();
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (k) out += ',';
      out += JsonString(names[k]);
    }
  }
  out += "]}";
  return out;
}

std::string ViewerData::RankJson(std::size_t i) const {
  const std::optional<std::int64_t>& rank = reports_[i].readers->described().process().rank;
  std::string out = ",\"rank\":" + (rank ? std::to_string(*rank) : std::string("null"));
  if (placements_.empty()) return out + ",\"clock\":null";
  const analysis::ranks::RankPlacement& placement = placements_[i];
  return out + ",\"label\":" + JsonString(placement.label) +
         ",\"clock\":{\"offset\":" + std::to_string(placement.clock.offset_ns) +
         ",\"error\":" + std::to_string(placement.clock.error_ns) +
         ",\"method\":" + JsonString(placement.clock.method) +
         ",\"position\":" + std::to_string(placement.position) + "}";
}

std::string ViewerData::ReportsJson() const {
  std::string out = "[";
  for (std::size_t i = 0; i < reports_.size(); ++i) out += (i ? "," : "") + ReportJson(i);
  return out + "]";
}

StatusOr<std::vector<std::uint64_t>> ViewerData::NvtxRangeAnchors(std::string_view range) const {
  std::vector<const TrackIndex*> indexes;
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < reports_.size(); ++i) {
    indexes.push_back(reports_[i].index.get());
    labels.push_back("#" + std::to_string(i) + " (" + reports_[i].name + ")");
  }
  return viewer::NvtxRangeAnchors(indexes, labels, range);
}

Status ViewerData::SetAlignment(AxisAlignment alignment) {
  if (alignment.mode == AxisAlignment::Mode::kNvtxRange) {
    StatusOr<std::vector<std::uint64_t>> anchors = NvtxRangeAnchors(alignment.range);
    if (!anchors.ok()) return anchors.status();
  }
  alignment_ = std::move(alignment);
  return {};
}

StatusOr<std::string> ViewerData::NvtxRangeAnchorsJson(std::string_view range) const {
  StatusOr<std::vector<std::uint64_t>> anchors = NvtxRangeAnchors(range);
  if (!anchors.ok()) return anchors.status();
  std::string out = "{\"range\":" + JsonString(range) + ",\"starts\":[";
  for (std::size_t i = 0; i < anchors->size(); ++i) {
    out += (i ? "," : "") + std::to_string((*anchors)[i]);
  }
  return out + "]}";
}

std::string ViewerData::TracksJson(std::size_t report) const {
  std::string out = "[";
  const std::vector<Track>& tracks = reports_[report].index->tracks();
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const Track& track = tracks[i];
    out += (i ? "," : "");
    out += "{\"id\":" + JsonString(track.id) + ",\"group\":" + JsonString(track.group) +
           ",\"label\":" + JsonString(track.label) + ",\"kind\":" + JsonString(track.kind);
    if (track.kind == "nvtx" || track.kind == "api") {
      out += ",\"depth\":" + std::to_string(track.max_depth + 1);
    }
    if (!track.unit.empty()) {
      out += ",\"unit\":" + JsonString(track.unit) + ",\"scale\":" + std::to_string(track.scale);
    }
    out += ",\"events\":" +
           std::to_string(track.kind == "counter" ? track.counter.size() : track.events.size()) +
           "}";
  }
  return out + "]";
}

StatusOr<std::string> ViewerData::EventJson(std::size_t report, EventType type,
                                            std::uint32_t id) const {
  StatusOr<ReaderPool::Lease> lease = Borrow(report);
  if (!lease.ok()) return lease.status();
  const store::ReportReader& reader = **lease;
  const TrackIndex& index = *reports_[report].index;
  std::string out;
  std::vector<std::uint32_t> correlations;
  std::uint32_t stack_id = 0;  // an API call's --backtrace stack
  StatusOr<bool> found =
      store::ReadEventRow(reader, TableOf(type), id, [&](const store::TableRow& row) {
        out = "{\"type\":\"" + std::string(EventTypeName(type)) + "\"";
        for (std::size_t c = 0; c < row.columns.size(); ++c) {
          if (row.columns[c] == "type") continue;  // ours: the event's viewer type
          out += "," + JsonString(row.columns[c]) + ":" + JsonValue(row.values[c]);
          if ((row.columns[c] == "correlation_id" || row.columns[c] == "runtime_correlation_id") &&
              row.values[c].integer != 0) {
            correlations.push_back(static_cast<std::uint32_t>(row.values[c].integer));
          }
          if (row.columns[c] == "stack_id" && type == EventType::kApi && row.values[c].integer > 0) {
            stack_id = static_cast<std::uint32_t>(row.values[c].integer);
          }
        }
      });
  if (!found.ok()) return found.status();
  if (out.empty()) {
    return Status::Error("no " + std::string(EventTypeName(type)) + " with id " +
                         std::to_string(id) + " in report " + std::to_string(report));
  }
  if (type == EventType::kNvtx || type == EventType::kMark) correlations.clear();
  if (stack_id != 0) {
    StatusOr<std::string> stack = StackJson(reader, stack_id);
    if (!stack.ok()) return stack.status();
    out += *stack;
  }
  out += ",\"related\":[";
  bool first = true;
  for (std::uint32_t correlation : correlations) {
    for (const CorrelatedEvent& related : index.Correlated(correlation, type == EventType::kApi)) {
      const Track& track = index.tracks()[related.track];
      const TrackEvent& event = track.events[related.index];
      out += first ? "" : ",";
      first = false;
      out += "{\"type\":\"" + std::string(EventTypeName(event.type())) +
             "\",\"id\":" + std::to_string(event.id) + ",\"track\":" + JsonString(track.id) +
             ",\"s\":" + std::to_string(event.start) + ",\"e\":" + std::to_string(event.end) +
             ",\"name\":" + JsonString(index.Name(event)) + "}";
    }
  }
  return out + "]}";
}

StatusOr<std::string> ViewerData::SummaryJson(std::span<const std::size_t> reports) {
  // A report listed twice is counted once: in the tables, and in the work (a long list of
  // one id costs one report's work).
  std::vector<std::size_t> key(reports.begin(), reports.end());
  std::sort(key.begin(), key.end());
  key.erase(std::unique(key.begin(), key.end()), key.end());
  std::shared_ptr<ComputedOnce<std::string>> summary;
  {
    std::lock_guard<std::mutex> cache_lock(summaries_mutex_);
    auto cached = summaries_.find(key);
    if (cached == summaries_.end()) {
      // Sets of reports are few in practice; a client asking for every subset must not grow
      // the cache without end. A summary being computed lives on with its callers.
      if (summaries_.size() >= kMaxCachedSummaries) summaries_.clear();
      cached = summaries_.emplace(key, std::make_shared<ComputedOnce<std::string>>()).first;
    }
    summary = cached->second;
  }
  StatusOr<const std::string*> out =
      summary->Get([&] {
        return TablesJson(key, analysis::StatsReportNames(), {}, kSummaryTraceRows);
      });
  if (!out.ok()) return out.status();
  return **out;
}

StatusOr<std::string> ViewerData::RangeSummaryJson(std::span<const std::size_t> reports,
                                                   const analysis::TimeWindow& window) {
  std::vector<std::size_t> key(reports.begin(), reports.end());
  std::sort(key.begin(), key.end());
  key.erase(std::unique(key.begin(), key.end()), key.end());
  return TablesJson(key, analysis::WindowedStatsReportNames(), window);
}

StatusOr<std::string> ViewerData::EmbeddedSummaryJson(
    std::uint64_t max_trace_rows, std::map<std::string, analysis::TraceTableCut>& cuts) {
  std::vector<std::size_t> all(reports_.size());
  for (std::size_t r = 0; r < all.size(); ++r) all[r] = r;
  return TablesJson(all, analysis::StatsReportNames(), {}, max_trace_rows, &cuts);
}

StatusOr<std::string> ViewerData::TablesJson(
    const std::vector<std::size_t>& sorted_reports, const std::vector<std::string>& names,
    const analysis::TimeWindow& window, std::optional<std::uint64_t> max_trace_rows,
    std::map<std::string, analysis::TraceTableCut>* cuts) const {
  std::vector<ReaderPool::Lease> leases;
  analysis::Reports readers;
  for (std::size_t r : sorted_reports) {
    StatusOr<ReaderPool::Lease> lease = Borrow(r);
    if (!lease.ok()) return lease.status();
    leases.push_back(std::move(lease.value()));
    readers.push_back(leases.back().get());
  }
  if (summary_hook_for_testing_) summary_hook_for_testing_();
  std::string out = "{\"tables\":{";
  std::string embedded_rows;  // "name":{"rows":N,"total":M} of each trace table cut
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::ostringstream table;
    if (max_trace_rows && analysis::IsTraceTable(names[i])) {
      analysis::TraceTableCut cut;
      StatusOr<analysis::StatsTable> rows =
          analysis::BuildEarliestTraceRows(names[i], readers, *max_trace_rows, cut);
      if (!rows.ok()) return rows.status();
      render::WriteStatsTable(*rows, render::StatsFormat::kJson, table);
      if (cut.kept < cut.total) {
        if (cuts != nullptr) (*cuts)[names[i]] = cut;
        embedded_rows += (embedded_rows.empty() ? "" : ",") + JsonString(names[i]) +
                         ":{\"rows\":" + std::to_string(cut.kept) +
                         ",\"total\":" + std::to_string(cut.total) + "}";
      }
    } else {
      GPUSCOPE_RETURN_IF_ERROR(
          render::WriteStatsReport(names[i], readers, render::StatsFormat::kJson, table, window));
    }
    std::string text = table.str();
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    out += (i ? "," : "") + JsonString(names[i]) + ":" + (text.empty() ? "[]" : text);
  }
  if (!embedded_rows.empty()) out += "},\"embedded_rows\":{" + embedded_rows;
  // The rows the tables left out as damaged, counted while they were built.
  out += "},\"warnings\":[";
  bool first_warning = true;
  for (std::size_t r = 0; r < readers.size(); ++r) {
    for (const std::string& warning : analysis::SkippedRowWarnings(*readers[r])) {
      out += (first_warning ? "" : ",") +
             JsonString(reports_[sorted_reports[r]].name + ": " + warning);
      first_warning = false;
    }
  }
  return out + "]}";
}

StatusOr<std::string> ViewerData::KernelJson(std::size_t report, const std::string& name) const {
  StatusOr<std::map<std::string, KernelPage>> pages = KernelPages(Borrow(report), &name);
  if (!pages.ok()) return pages.status();
  auto found = pages->find(name);
  if (found == pages->end()) {
    return Status::Error("no kernel named " + name + " in report " + std::to_string(report));
  }
  StatusOr<const ReportProfiles*> profiles = Profiles(report);
  if (!profiles.ok()) return profiles.status();
  return KernelPageJson(found->first, found->second, *profiles.value());
}

StatusOr<std::string> ViewerData::AllKernelsJson(std::size_t report) const {
  StatusOr<std::map<std::string, KernelPage>> pages = KernelPages(Borrow(report), nullptr);
  if (!pages.ok()) return pages.status();
  StatusOr<const ReportProfiles*> profiles = Profiles(report);
  if (!profiles.ok()) return profiles.status();
  std::string out = "{";
  bool first = true;
  for (const auto& [name, page] : pages.value()) {
    out += (first ? "" : ",") + JsonString(name) + ":" + KernelPageJson(name, page, **profiles);
    first = false;
  }
  return out + "}";
}

StatusOr<const ReportProfiles*> ViewerData::Profiles(std::size_t report) const {
  const Loaded& loaded = reports_[report];
  StatusOr<const std::unique_ptr<ReportProfiles>*> profiles =
      loaded.profiles->Get([&]() -> StatusOr<std::unique_ptr<ReportProfiles>> {
        StatusOr<ReaderPool::Lease> lease = Borrow(report);
        if (!lease.ok()) return lease.status();
        StatusOr<std::unique_ptr<ReportProfiles>> loaded_profiles = ReportProfiles::Load(**lease);
        if (!loaded_profiles.ok()) {
          return Status::Error(loaded.name + ": " + loaded_profiles.status().message());
        }
        return loaded_profiles;
      });
  if (!profiles.ok()) return profiles.status();
  return (*profiles)->get();
}

StatusOr<std::string> ViewerData::FindingsJson(std::size_t report) const {
  const Loaded& loaded = reports_[report];
  StatusOr<const std::string*> findings = loaded.findings->Get([&]() -> StatusOr<std::string> {
    StatusOr<const ReportProfiles*> profiles = Profiles(report);
    if (!profiles.ok()) return profiles.status();
    StatusOr<ReaderPool::Lease> lease = Borrow(report);
    if (!lease.ok()) return lease.status();
    return ReportFindingsJson(**lease, *loaded.index, *profiles.value());
  });
  if (!findings.ok()) return findings.status();
  return **findings;
}

Status ViewerData::FillEventFacts(std::size_t report, EventType type,
                                  std::unordered_map<std::uint32_t, EventFacts>& facts) const {
  StatusOr<ReaderPool::Lease> lease = Borrow(report);
  if (!lease.ok()) return lease.status();
  return store::FillEventAttributes(**lease, TableOf(type), facts);
}

std::string ViewerData::DiffJson(std::size_t a, std::size_t b) const {
  auto totals_a = TotalsByName(*reports_[a].index);
  auto totals_b = TotalsByName(*reports_[b].index);
  std::vector<std::string_view> names;
  for (const auto& [name, t] : totals_a) names.push_back(name);
  for (const auto& [name, t] : totals_b) {
    if (!totals_a.count(name)) names.push_back(name);
  }
  struct Row {
    std::string_view name;
    KernelTotals a, b;
    std::int64_t delta = 0;
  };
  std::vector<Row> rows;
  for (std::string_view name : names) {
    Row row{name, totals_a[name], totals_b[name], 0};
    row.delta = static_cast<std::int64_t>(row.b.total) - static_cast<std::int64_t>(row.a.total);
    rows.push_back(row);
  }
  // Biggest changes first; equal changes by name, so the order is stable.
  std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) {
    std::int64_t dx = x.delta < 0 ? -x.delta : x.delta, dy = y.delta < 0 ? -y.delta : y.delta;
    return dx != dy ? dx > dy : x.name < y.name;
  });
  std::string out = "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    out += (i ? "," : "");
    out += "{\"name\":" + JsonString(row.name) + ",\"a\":" + TotalsJson(row.a) +
           ",\"b\":" + TotalsJson(row.b) + ",\"delta_total\":" + std::to_string(row.delta) +
           ",\"delta_pct\":";
    if (row.a.total == 0) {
      out += "null";  // new in b: no percentage of nothing
    } else {
      std::ostringstream pct;
      pct.precision(6);
      pct << 100.0 * static_cast<double>(row.delta) / static_cast<double>(row.a.total);
      out += pct.str();
    }
    out += "}";
  }
  return out + "]";
}

}  // namespace gpuscope::viewer

#include "viewer/kernel_profile_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "analysis/metrics/section_values.h"
#include "analysis/metrics/value_format.h"
#include "analysis/occupancy.h"
#include "analysis/occupancy_graphs.h"
#include "analysis/roofline/roofline.h"
#include "analysis/rules/rule_registry.h"
#include "render/escaping.h"

namespace gpuscope::viewer {
namespace {

using render::JsonString;

// What Nsight Compute's "Achieved Occupancy" is: active warps over the SM's maximum while the
// SM was active.
constexpr const char* kAchievedOccupancyMetric =
    "sm__warps_active.avg.pct_of_peak_sustained_active";

// Appends `item` to a comma-separated list that starts empty.
void AppendItem(std::string& list, const std::string& item) {
  if (!list.empty()) list += ',';
  list += item;
}

std::string OptionalNumber(const std::optional<double>& value) {
  return value ? JsonNumber(*value) : "null";
}

std::string MetricJson(const analysis::metrics::MetricRow& row) {
  // The text page prints "n/a" for a value it cannot give; the web page shows a string value
  // as it is, so the same word reaches the browser.
  const bool known = row.value && std::isfinite(row.scaled.value);
  const std::string text =
      known ? analysis::metrics::FormatMetricNumber(row.scaled.value, /*group_thousands=*/true)
            : "n/a";
  return "{\"name\":" + JsonString(row.label) + ",\"unit\":" + JsonString(row.scaled.text_unit) +
         ",\"value\":" + (known ? JsonNumber(row.scaled.value) : "\"n/a\"") +
         ",\"text\":" + JsonString(text) + ",\"table\":" + JsonString(row.table) + "}";
}

// The roofline's compute ceilings are the ones its SVG draws (FP64, FP32, FP16): the tensor
// roof is an order of magnitude above them and would flatten every other roof on the chart.
constexpr analysis::roofline::Precision kChartPrecisions[] = {analysis::roofline::Precision::kFp64,
                                                              analysis::roofline::Precision::kFp32,
                                                              analysis::roofline::Precision::kFp16};
constexpr analysis::roofline::MemoryLevel kLevels[] = {analysis::roofline::MemoryLevel::kDram,
                                                       analysis::roofline::MemoryLevel::kL2,
                                                       analysis::roofline::MemoryLevel::kL1};
constexpr analysis::roofline::Precision kAllPrecisions[] = {
    analysis::roofline::Precision::kFp64, analysis::roofline::Precision::kFp32,
    analysis::roofline::Precision::kFp16, analysis::roofline::Precision::kTensor};

std::string VerdictJson(const analysis::roofline::RooflineVerdict& verdict) {
  return "{\"bound\":" + JsonString(analysis::roofline::BoundName(verdict.bound)) +
         ",\"limiter\":" + JsonString(verdict.limiter) +
         ",\"utilization_pct\":" + OptionalNumber(verdict.utilization_pct) +
         ",\"headroom\":" + OptionalNumber(verdict.headroom) +
         ",\"reason\":" + JsonString(verdict.reason) + "}";
}

std::string CeilingsJson(const analysis::roofline::RooflineResult& r) {
  std::string out;
  for (analysis::roofline::Precision p : kChartPrecisions) {
    const auto& peak = r.rate(p).peak_flop_per_second;
    if (!peak || !std::isfinite(*peak) || *peak <= 0) continue;
    AppendItem(out, "{\"name\":" + JsonString(analysis::roofline::PrecisionName(p)) +
                        ",\"flops\":" + JsonNumber(*peak) + "}");
  }
  for (analysis::roofline::MemoryLevel l : kLevels) {
    const auto& peak = r.level(l).peak_bytes_per_second;
    if (!peak || !std::isfinite(*peak) || *peak <= 0) continue;
    AppendItem(out, "{\"name\":" + JsonString(analysis::roofline::MemoryLevelName(l)) +
                        ",\"bandwidth\":" + JsonNumber(*peak) + "}");
  }
  return "[" + out + "]";
}

// The kernel's main precision at each memory level's intensity, as the SVG places it.
std::string PointsJson(const analysis::roofline::RooflineResult& r) {
  const analysis::roofline::Precision main = r.MainPrecision();
  const auto& performance = r.rate(main).flop_per_second;
  std::string out;
  for (analysis::roofline::MemoryLevel l : kLevels) {
    const std::optional<double> intensity = r.Intensity(main, l);
    if (!intensity || !performance || *intensity <= 0 || *performance <= 0) continue;
    AppendItem(out, "{\"label\":" +
                        JsonString(std::string(analysis::roofline::PrecisionName(main)) + " at " +
                                   std::string(analysis::roofline::MemoryLevelName(l))) +
                        ",\"level\":" + JsonString(analysis::roofline::MemoryLevelName(l)) +
                        ",\"intensity\":" + JsonNumber(*intensity) +
                        ",\"performance\":" + JsonNumber(*performance) + "}");
  }
  return "[" + out + "]";
}

std::string RatesJson(const analysis::roofline::RooflineResult& r) {
  std::string out;
  for (analysis::roofline::Precision p : kAllPrecisions) {
    const analysis::roofline::FlopRate& rate = r.rate(p);
    AppendItem(out, "{\"precision\":" + JsonString(analysis::roofline::PrecisionName(p)) +
                        ",\"flops\":" + OptionalNumber(rate.flops) +
                        ",\"flop_per_second\":" + OptionalNumber(rate.flop_per_second) +
                        ",\"peak_flop_per_second\":" + OptionalNumber(rate.peak_flop_per_second) +
                        ",\"pct_of_peak\":" + OptionalNumber(rate.pct_of_peak) + "}");
  }
  return "[" + out + "]";
}

std::string LevelsJson(const analysis::roofline::RooflineResult& r) {
  std::string out;
  for (analysis::roofline::MemoryLevel l : kLevels) {
    const analysis::roofline::Bandwidth& b = r.level(l);
    AppendItem(out, "{\"level\":" + JsonString(analysis::roofline::MemoryLevelName(l)) +
                        ",\"bytes\":" + OptionalNumber(b.bytes) +
                        ",\"bytes_per_second\":" + OptionalNumber(b.bytes_per_second) +
                        ",\"peak_bytes_per_second\":" + OptionalNumber(b.peak_bytes_per_second) +
                        ",\"peak_source\":" + JsonString(b.peak_source) +
                        ",\"pct_of_peak\":" + OptionalNumber(b.pct_of_peak) +
                        ",\"busy_source\":" + JsonString(b.busy_source) + "}");
  }
  return "[" + out + "]";
}

std::string LimitsJson(const analysis::OccupancyResult& result) {
  std::string limits, limiters;
  for (analysis::OccupancyResource resource : analysis::kOccupancyResources) {
    const int blocks = result.BlockLimit(resource);
    // A resource the kernel does not use limits nothing; the text page prints n/a there.
    AppendItem(limits, JsonString(analysis::ResourceName(resource)) + ":" +
                           (blocks == analysis::kUnlimitedBlocks ? std::string("\"unlimited\"")
                                                                 : std::to_string(blocks)));
  }
  for (analysis::OccupancyResource resource : result.Limiters()) {
    AppendItem(limiters, JsonString(analysis::ResourceName(resource)));
  }
  return ",\"limits\":{" + limits + "},\"limiters\":[" + limiters +
         "],\"blocks_per_sm\":" + std::to_string(result.blocks_per_sm) +
         ",\"active_warps_per_sm\":" + std::to_string(result.active_warps_per_sm) +
         ",\"max_warps_per_sm\":" + std::to_string(result.max_warps_per_sm);
}

// The calculator's three graphs for the launch. They vary one input with the others as
// launched and choose the carveout per point, so the recorded carveout is left out (a
// carveout the calculator does not know would otherwise reject the whole input).
std::string GraphsJson(const analysis::metrics::KernelProfile& profile) {
  auto arch = analysis::FindArchitecture(static_cast<int>(profile.device.compute_major),
                                         static_cast<int>(profile.device.compute_minor));
  if (!arch.ok()) return "[]";
  auto graphs = analysis::ComputeOccupancyGraphs(
      *arch, analysis::metrics::OccupancyInputFor(profile, /*with_carveout=*/false));
  if (!graphs.ok()) return "[]";
  std::string out;
  for (const analysis::OccupancyGraph& graph : *graphs) {
    AppendItem(out, "{\"name\":" + JsonString(graph.title) + ",\"id\":" + JsonString(graph.id) +
                        ",\"x_label\":" + JsonString(graph.x_label) +
                        ",\"current\":" + std::to_string(graph.current_x) + ",\"points\":[");
    std::string points;
    for (const analysis::OccupancyGraphPoint& point : graph.points) {
      // Built by appending: GCC 12 warns (-Wrestrict, a false positive) on "[" + to_string.
      std::string pair(1, '[');
      pair += std::to_string(point.x);
      pair += ',';
      pair += JsonNumber(point.occupancy_percent);
      pair += ']';
      AppendItem(points, pair);
    }
    out += points + "]}";
  }
  return "[" + out + "]";
}

}  // namespace

std::string JsonNumber(double value) {
  // 15 significant digits: every value of a report, without the binary noise of a 17th
  // ("0.30000000000000004") that no reader wants to see.
  return render::JsonNumber(value, 15);
}

std::string SectionsJson(const analysis::metrics::KernelProfile& profile,
                         const std::vector<const analysis::metrics::Section*>& sections) {
  const std::vector<analysis::metrics::MetricRow> rows =
      analysis::metrics::EvaluateSections(profile, sections);
  std::string out = "[";
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const analysis::metrics::Section& section = *sections[s];
    out += (s ? "," : "");
    out += "{\"name\":" + JsonString(section.display_name) +
           ",\"id\":" + JsonString(section.identifier) + ",\"metrics\":[";
    // Header rows first, then each body table in the order its first row comes, as the text
    // page prints them; EvaluateSections gives catalog order, where they may interleave.
    std::vector<std::string> tables = {""};
    for (const analysis::metrics::MetricRow& row : rows) {
      if (row.section != section.display_name) continue;
      if (std::find(tables.begin(), tables.end(), row.table) == tables.end()) {
        tables.push_back(row.table);
      }
    }
    bool first = true;
    for (const std::string& table : tables) {
      for (const analysis::metrics::MetricRow& row : rows) {
        if (row.section != section.display_name || row.table != table) continue;
        if (!first) out += ',';
        out += MetricJson(row);
        first = false;
      }
    }
    out += "]}";
  }
  return out + "]";
}

std::string FindingsJson(const analysis::metrics::KernelProfile& profile,
                         const analysis::source::KernelSource* source) {
  std::string out = "[";
  bool first = true;
  for (const analysis::Finding& finding : analysis::rules::RunKernelRules(profile, source)) {
    if (!first) out += ',';
    first = false;
    out += "{\"severity\":" + JsonString(analysis::SeverityName(finding.severity)) +
           ",\"title\":" + JsonString(finding.title) + ",\"rule\":" + JsonString(finding.rule_id) +
           ",\"section\":" + JsonString(finding.section) +
           ",\"message\":" + JsonString(finding.message) +
           ",\"speedup\":" + OptionalNumber(finding.speedup_pct) +
           ",\"speedup_formula\":" + JsonString(finding.speedup_formula) + "}";
  }
  return out + "]";
}

std::string RooflineJson(const analysis::metrics::KernelProfile& profile) {
  const analysis::roofline::RooflineResult r = analysis::roofline::ComputeRoofline(profile);
  const analysis::roofline::Precision main = r.MainPrecision();
  std::string missing;
  for (const std::string& name : r.missing) {
    AppendItem(missing, JsonString(name));
  }
  return "{\"peak_flops\":" + OptionalNumber(r.rate(main).peak_flop_per_second) +
         ",\"peak_bandwidth\":" +
         OptionalNumber(r.level(analysis::roofline::MemoryLevel::kDram).peak_bytes_per_second) +
         ",\"ceilings\":" + CeilingsJson(r) + ",\"points\":" + PointsJson(r) +
         ",\"precision\":" + JsonString(analysis::roofline::PrecisionName(main)) +
         ",\"verdict\":" + VerdictJson(r.verdict) + ",\"rates\":" + RatesJson(r) +
         ",\"levels\":" + LevelsJson(r) + ",\"duration_ns\":" + OptionalNumber(r.duration_ns) +
         ",\"sm_throughput_pct\":" + OptionalNumber(r.sm_throughput_pct) +
         ",\"memory_throughput_pct\":" + OptionalNumber(r.memory_throughput_pct) +
         ",\"missing\":[" + missing + "]}";
}

std::string OccupancyJson(const analysis::metrics::KernelProfile& profile) {
  std::optional<double> achieved;
  if (auto it = profile.metrics.find(kAchievedOccupancyMetric); it != profile.metrics.end()) {
    achieved = it->second;
  }
  StatusOr<analysis::OccupancyResult> theoretical =
      analysis::metrics::TheoreticalOccupancy(profile);
  if (!theoretical.ok()) {
    if (!achieved) return "null";
    return "{\"theoretical\":null,\"achieved\":" + OptionalNumber(achieved) +
           ",\"error\":" + JsonString(theoretical.status().message()) + "}";
  }
  return "{\"theoretical\":" + JsonNumber(theoretical->occupancy_percent) +
         ",\"achieved\":" + OptionalNumber(achieved) + LimitsJson(*theoretical) +
         ",\"graphs\":" + GraphsJson(profile) + "}";
}

}  // namespace gpuscope::viewer

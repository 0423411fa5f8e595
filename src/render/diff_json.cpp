// `gpuscope diff --format json`: one object for CI (its shape is in diff_format.h).
#include "render/diff_format.h"
#include "render/diff_source_lines.h"
#include "render/diff_values.h"
#include "render/escaping.h"

namespace gpuscope::render {

using analysis::diff::ChangeName;
using analysis::diff::DirectionName;
using analysis::diff::KernelDiff;
using analysis::diff::KernelOnlyIn;
using analysis::diff::LaunchConfig;
using analysis::diff::MatchByName;
using analysis::diff::MetricDelta;
using analysis::diff::RangeDiff;
using analysis::diff::RangeOnlyIn;
using analysis::diff::ReportDiff;

namespace {

const char* Bool(bool value) { return value ? "true" : "false"; }

std::string Dims(const std::array<std::int32_t, 3>& d) {
  std::string text = "[";
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(d[i]);
  }
  return text + ']';
}

std::string Configs(const std::vector<LaunchConfig>& configs) {
  std::string text = "[";
  for (const LaunchConfig& c : configs) {
    if (text.size() > 1) text += ",";
    text += "{\"grid\":" + Dims(c.grid) + ",\"block\":" + Dims(c.block) + "}";
  }
  return text + "]";
}

std::string Value(const MetricDelta& d) {
  return "{\"metric\":" + JsonString(d.name) + ",\"label\":" + JsonString(MetricLabel(d)) +
         ",\"unit\":" + JsonString(d.unit) + ",\"before\":" + JsonNumber(d.before.mean) +
         ",\"after\":" + JsonNumber(d.after.mean) +
         ",\"before_count\":" + std::to_string(d.before.count) +
         ",\"after_count\":" + std::to_string(d.after.count) + ",\"delta\":" + JsonNumber(d.delta) +
         ",\"relative\":" + (d.relative ? JsonNumber(*d.relative) : "null") +
         ",\"direction\":" + JsonString(DirectionName(d.direction)) +
         ",\"change\":" + JsonString(ChangeName(d.change)) +
         ",\"beyond_noise\":" + Bool(d.beyond_noise) + ",\"noise\":" + JsonNumber(d.noise) +
         ",\"noise_source\":" + JsonString(d.noise_source) + "}";
}

// `[item, item]` over a list, one item per line.
template <typename List, typename Write>
void Array(std::ostream& out, const List& list, Write write) {
  out << '[';
  bool first = true;
  for (const auto& item : list) {
    out << (first ? "\n    " : ",\n    ");
    write(item);
    first = false;
  }
  out << (first ? "]" : "\n  ]");
}

void Kernel(std::ostream& out, const KernelDiff& k) {
  const MetricDelta* time = k.Time();
  out << "{\"name\":" << JsonString(k.key.name) << ",\"function\":" << JsonString(k.function_name)
      << ",\"configs_before\":" << Configs(k.configs_before)
      << ",\"configs_after\":" << Configs(k.configs_after)
      << ",\"config_changed\":" << Bool(k.ConfigChanged())
      << ",\"launches_before\":" << k.launches_before << ",\"launches_after\":" << k.launches_after
      << ",\"time_saved_ns\":" << (k.time_saved_ns ? JsonNumber(*k.time_saved_ns) : "null")
      << ",\"regression\":" << Bool(k.regression) << ",\"time\":" << (time ? Value(*time) : "null")
      << ",\"values\":[";
  for (std::size_t i = 0; i < k.metrics.size(); ++i) {
    out << (i ? "," : "") << Value(k.metrics[i]);
  }
  out << "],\"source_lines\":"
      << (k.source_lines ? SourceLineDiffJson(*k.source_lines) : std::string("null")) << "}";
}

void KernelOnly(std::ostream& out, const KernelOnlyIn& k) {
  out << "{\"name\":" << JsonString(k.key.name) << ",\"function\":" << JsonString(k.function_name)
      << ",\"configs\":" << Configs(k.configs) << ",\"launches\":" << k.launches
      << ",\"total_time_ns\":" << JsonNumber(k.total_time_ns) << "}";
}

void Range(std::ostream& out, const RangeDiff& r) {
  out << "{\"name\":" << JsonString(r.name) << ",\"instances_before\":" << r.projected.before.count
      << ",\"instances_after\":" << r.projected.after.count
      << ",\"time_saved_ns\":" << JsonNumber(r.time_saved_ns)
      << ",\"regression\":" << Bool(r.regression) << ",\"time\":" << Value(r.projected) << "}";
}

void RangeOnly(std::ostream& out, const RangeOnlyIn& r) {
  out << "{\"name\":" << JsonString(r.name) << ",\"instances\":" << r.instances
      << ",\"total_time_ns\":" << JsonNumber(r.total_time_ns) << "}";
}

}  // namespace

void WriteDiffJson(const ReportDiff& diff, std::ostream& out) {
  out << "{\n  \"before\": " << JsonString(diff.before_path)
      << ",\n  \"after\": " << JsonString(diff.after_path)
      << ",\n  \"match\": " << JsonString(MatchByName(diff.match))
      << ",\n  \"regressions\": " << diff.regressions << ",\n  \"kernels\": ";
  Array(out, diff.kernels, [&](const KernelDiff& k) { Kernel(out, k); });
  out << ",\n  \"kernels_only_before\": ";
  Array(out, diff.only_before, [&](const KernelOnlyIn& k) { KernelOnly(out, k); });
  out << ",\n  \"kernels_only_after\": ";
  Array(out, diff.only_after, [&](const KernelOnlyIn& k) { KernelOnly(out, k); });
  out << ",\n  \"nvtx_ranges\": ";
  Array(out, diff.ranges, [&](const RangeDiff& r) { Range(out, r); });
  out << ",\n  \"nvtx_ranges_only_before\": ";
  Array(out, diff.ranges_only_before, [&](const RangeOnlyIn& r) { RangeOnly(out, r); });
  out << ",\n  \"nvtx_ranges_only_after\": ";
  Array(out, diff.ranges_only_after, [&](const RangeOnlyIn& r) { RangeOnly(out, r); });
  out << ",\n  \"source_notes\": ";
  Array(out, diff.source_notes, [&](const std::string& note) { out << JsonString(note); });
  out << "\n}\n";
}

}  // namespace gpuscope::render

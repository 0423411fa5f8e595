#include "render/diff_values.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/metrics/section_catalog.h"
#include "analysis/metrics/section_values.h"
#include "analysis/metrics/value_format.h"

namespace gpuscope::render {

using analysis::diff::LaunchConfig;
using analysis::diff::MetricDelta;
using analysis::metrics::FindMetricEntry;
using analysis::metrics::FormatMetricNumber;
using analysis::metrics::ScaledValue;
using analysis::metrics::ScaleValue;
using analysis::metrics::SectionEntry;
using analysis::metrics::UnitKind;

namespace {

// The scaling of a metric no section row describes, from the unit the report stored.
UnitKind KindOfStoredUnit(const std::string& unit) {
  if (unit == "ns" || unit == "nsecond") return UnitKind::kDuration;
  if (unit == "byte") return UnitKind::kBytes;
  if (unit == "byte/second") return UnitKind::kByteRate;
  if (unit == "cycle/second") return UnitKind::kFrequency;
  return UnitKind::kFixed;
}

}  // namespace

std::string MetricLabel(const MetricDelta& delta) {
  const SectionEntry* entry = FindMetricEntry(delta.name);
  return entry ? entry->label : delta.name;
}

ScaledDelta ScaleDelta(const MetricDelta& delta) {
  const SectionEntry* entry = FindMetricEntry(delta.name);
  UnitKind kind = entry ? entry->unit_kind : KindOfStoredUnit(delta.unit);
  // The catalog's unit ("%", "cycle") or suffix ("/block") where it has one; else a fixed
  // unit is the report's, and a scaled kind needs no suffix.
  std::string suffix = entry && !entry->unit.empty() ? entry->unit
                       : kind == UnitKind::kFixed     ? delta.unit
                                                      : "";
  double larger = std::max(std::fabs(delta.before.mean), std::fabs(delta.after.mean));
  ScaledValue scale = ScaleValue(kind, suffix, larger);
  double divisor = scale.divisor != 0 ? scale.divisor : 1;
  return {scale.text_unit, FormatMetricNumber(delta.before.mean / divisor, true),
          FormatMetricNumber(delta.after.mean / divisor, true)};
}

std::string ConfigText(const std::vector<LaunchConfig>& configs, bool grid) {
  std::set<std::array<std::int32_t, 3>> dims;  // a grid shared by several blocks once
  for (const LaunchConfig& config : configs) dims.insert(grid ? config.grid : config.block);
  std::string text;
  for (const auto& d : dims) {
    if (!text.empty()) text += ", ";
    text += analysis::metrics::FormatDim3(d);
  }
  return text;
}

std::string ConfigChangeText(const std::vector<LaunchConfig>& before,
                             const std::vector<LaunchConfig>& after) {
  auto dimension = [&](std::string_view title, bool grid) {
    std::string was = ConfigText(before, grid);
    std::string is = ConfigText(after, grid);
    return std::string(title) + " " + (was == is ? was : was + " -> " + is);
  };
  return dimension("grid", true) + "  " + dimension("block", false);
}

}  // namespace gpuscope::render

#include "render/diff_format.h"

#include <cmath>
#include <map>

#include "analysis/metrics/value_format.h"
#include "render/diff_source_lines.h"
#include "render/diff_values.h"
#include "render/escaping.h"
#include "render/metric_table.h"

namespace gpuscope::render {

using analysis::diff::ChangeName;
using analysis::diff::FormatRelative;
using analysis::diff::KernelDiff;
using analysis::diff::KernelOnlyIn;
using analysis::diff::MatchBy;
using analysis::diff::MetricDelta;
using analysis::diff::RangeDiff;
using analysis::diff::RangeOnlyIn;
using analysis::diff::ReportDiff;
using analysis::metrics::FormatMetricNumber;
using analysis::metrics::ScaledValue;
using analysis::metrics::ScaleValue;
using analysis::metrics::UnitKind;

namespace {

std::string TimeText(double ns) {
  ScaledValue s = ScaleValue(UnitKind::kDuration, "", std::fabs(ns));
  return FormatMetricNumber(s.value, true) + " " + s.text_unit;
}

std::string TimeSavedText(double saved_ns) {
  return (saved_ns >= 0 ? "time saved " : "time lost ") + TimeText(saved_ns);
}

std::string NoiseText(const MetricDelta& d) {
  if (d.delta == 0) return "";
  return std::string(d.beyond_noise ? "beyond noise" : "within noise") + " (" + d.noise_source +
         ")";
}

// One table row: name, unit, before, after, change, verdict, noise. Names are the program's
// and metric names the report's: no raw escapes.
std::vector<std::string> Row(std::string name, const MetricDelta& d) {
  ScaledDelta scaled = ScaleDelta(d);
  return {TerminalText(name), TerminalText(scaled.unit),         scaled.before, scaled.after,
          FormatRelative(d),  std::string(ChangeName(d.change)), NoiseText(d)};
}

const std::vector<std::string> kHeaders = {"Metric Name", "Metric Unit", "Before", "After",
                                           "Change",      "Verdict",     "Noise"};

// Name and unit left, numbers right, verdict and noise left.
void WriteTable(std::ostream& out, const std::vector<std::string>& headers,
                const std::vector<std::vector<std::string>>& rows) {
  WriteMetricTable(out, headers, rows, /*left_aligned=*/2, /*left_aligned_tail=*/2);
}

void WriteKernel(const KernelDiff& k, const DiffFormatOptions& options, std::ostream& out) {
  out << "  " << TerminalText(k.function_name) << "  "
      << ConfigChangeText(k.configs_before, k.configs_after) << "  launches " << k.launches_before
      << " -> " << k.launches_after;
  if (k.time_saved_ns) out << "  " << TimeSavedText(*k.time_saved_ns);
  if (k.regression) out << "  REGRESSION";
  out << '\n';
  // ncu gives a few labels to two metrics ("TMA": the pipe's instructions and its cycles):
  // those rows also name the CUPTI id.
  std::map<std::string, int> label_uses;
  for (const MetricDelta& m : k.metrics) ++label_uses[MetricLabel(m)];
  auto name = [&](const MetricDelta& m) {
    std::string label = MetricLabel(m);
    return label_uses[label] > 1 ? label + " (" + m.name + ")" : label;
  };
  std::vector<std::vector<std::string>> rows;
  std::size_t within = 0, unchanged = 0;
  // The traced duration always: the first thing users look for.
  if (k.duration) rows.push_back(Row(k.duration->name, *k.duration));
  for (const MetricDelta& m : k.metrics) {
    if (options.all_rows || m.beyond_noise) {
      rows.push_back(Row(name(m), m));
    } else if (m.delta == 0) {
      ++unchanged;
    } else {
      ++within;
    }
  }
  if (rows.empty()) {
    out << "    no change beyond noise (" << k.metrics.size() << " metrics compared; " << within
        << " changed within noise)\n";
  } else {
    WriteTable(out, kHeaders, rows);
    if (k.metrics.empty() && !k.duration) out << "    (nothing measured in both reports)\n";
    if (within + unchanged > 0) {
      out << "    (" << within << " metrics changed within noise, " << unchanged
          << " unchanged; --all lists them)\n";
    }
  }
  if (k.source_lines) WriteSourceLineDiffText(*k.source_lines, options.all_rows, out);
  out << '\n';
}

void WriteKernelsOnlyIn(const std::vector<KernelOnlyIn>& kernels, std::string_view which,
                        std::ostream& out) {
  if (kernels.empty()) return;
  out << "  Kernels only in " << which << ":\n";
  for (const KernelOnlyIn& k : kernels) {
    out << "    " << TerminalText(k.function_name) << "  " << ConfigChangeText(k.configs, k.configs)
        << "  launches " << k.launches;
    if (k.total_time_ns > 0) out << "  time " << TimeText(k.total_time_ns);
    out << '\n';
  }
  out << '\n';
}

void WriteRanges(const ReportDiff& diff, std::ostream& out) {
  if (diff.ranges.empty() && diff.ranges_only_before.empty() && diff.ranges_only_after.empty()) {
    return;
  }
  out << "NVTX ranges (GPU time projected per range instance, matched by name)\n";
  std::vector<std::vector<std::string>> rows;
  for (const RangeDiff& r : diff.ranges) {
    std::vector<std::string> row = Row(r.name, r.projected);
    row.insert(row.begin() + 2, std::to_string(r.projected.before.count) + " -> " +
                                    std::to_string(r.projected.after.count));
    rows.push_back(std::move(row));
  }
  WriteTable(out, {"Range", "Unit", "Instances", "Before", "After", "Change", "Verdict", "Noise"},
             rows);
  for (const auto& [list, which] : {std::pair{&diff.ranges_only_before, "before"},
                                    std::pair{&diff.ranges_only_after, "after"}}) {
    if (list->empty()) continue;
    out << "  Ranges only in " << which << ":\n";
    for (const RangeOnlyIn& r : *list) {
      out << "    " << TerminalText(r.name) << "  instances " << r.instances << "  time "
          << TimeText(r.total_time_ns) << '\n';
    }
  }
  out << '\n';
}

void WriteRegressions(const ReportDiff& diff, std::ostream& out) {
  if (diff.regressions == 0) {
    out << "No regression beyond noise.\n";
    return;
  }
  out << "Regressions beyond noise: " << diff.regressions << " (";
  std::string separator;
  for (const KernelDiff& k : diff.kernels) {
    if (!k.regression) continue;
    out << separator << "kernel " << TerminalText(k.function_name);
    separator = ", ";
  }
  for (const RangeDiff& r : diff.ranges) {
    if (!r.regression) continue;
    out << separator << "NVTX range " << TerminalText(r.name);
    separator = ", ";
  }
  out << ")\n";
}

}  // namespace

void WriteDiffText(const ReportDiff& diff, const DiffFormatOptions& options, std::ostream& out) {
  out << "Comparing kernels (matched by "
      << (diff.match == MatchBy::kName ? "name" : "name, grid and block") << ")\n"
      << "  before: " << TerminalText(diff.before_path) << '\n'
      << "  after:  " << TerminalText(diff.after_path) << "\n\n";
  if (diff.kernels.empty()) out << "  No kernel is in both reports.\n\n";
  for (const KernelDiff& k : diff.kernels) WriteKernel(k, options, out);
  WriteKernelsOnlyIn(diff.only_before, "before", out);
  WriteKernelsOnlyIn(diff.only_after, "after", out);
  WriteRanges(diff, out);
  for (const std::string& note : diff.source_notes) {
    out << "Note: no per-line comparison, the source data of " << TerminalText(note) << '\n';
  }
  WriteRegressions(diff, out);
}

}  // namespace gpuscope::render

#include "render/diff_format.h"

#include <algorithm>
#include <cmath>
#include <iomanip>

#include "analysis/metrics/section_values.h"
#include "analysis/metrics/value_format.h"
#include "render/escaping.h"

namespace gpuscope::render {

using analysis::diff::ChangeName;
using analysis::diff::DirectionName;
using analysis::diff::FormatRelative;
using analysis::diff::KernelDiff;
using analysis::diff::KernelKey;
using analysis::diff::KernelOnlyIn;
using analysis::diff::MetricDelta;
using analysis::diff::ReportDiff;
using analysis::metrics::FormatDim3;
using analysis::metrics::FormatMetricNumber;
using analysis::metrics::FormatRawNumber;
using analysis::metrics::ScaledValue;
using analysis::metrics::ScaleValue;
using analysis::metrics::UnitKind;

namespace {

std::string ValueText(double value, const std::string& unit) {
  if (unit == "ns" || unit == "nsecond") {
    ScaledValue s = ScaleValue(UnitKind::kDuration, "", value);
    return FormatMetricNumber(s.value, true) + " " + s.text_unit;
  }
  if (unit == "byte") {
    ScaledValue s = ScaleValue(UnitKind::kBytes, "", value);
    return FormatMetricNumber(s.value, true) + " " + s.text_unit;
  }
  if (unit == "byte/second") {
    ScaledValue s = ScaleValue(UnitKind::kByteRate, "", value);
    return FormatMetricNumber(s.value, true) + " " + s.text_unit;
  }
  std::string text = FormatMetricNumber(value, true);
  return unit.empty() ? text : text + " " + TerminalText(unit);  // the report's unit
}

std::string SignedTime(double ns) {
  ScaledValue s = ScaleValue(UnitKind::kDuration, "", std::fabs(ns));
  return FormatMetricNumber(s.value, true) + " " + s.text_unit;
}

std::string NoiseText(const MetricDelta& d) {
  if (d.delta == 0) return "";
  return std::string(d.beyond_noise ? "beyond noise" : "within noise") + " (" + d.noise_source +
         ")";
}

std::string Launches(const KernelKey& key) {
  return "grid " + FormatDim3(key.grid) + "  block " + FormatDim3(key.block);
}

void Row(std::ostream& out, const MetricDelta& d, std::size_t name_width) {
  out << "    " << std::left << std::setw(static_cast<int>(name_width)) << TerminalText(d.name)
      << std::right << std::setw(18) << ValueText(d.before.mean, d.unit) << std::setw(18)
      << ValueText(d.after.mean, d.unit) << std::setw(10) << FormatRelative(d) << "  " << std::left
      << std::setw(8) << ChangeName(d.change) << NoiseText(d) << '\n';
}

void WriteKernel(const KernelDiff& k, const DiffFormatOptions& options, std::ostream& out) {
  // Names are the program's and metric names the report's: no raw escapes.
  out << "  " << TerminalText(k.function_name) << "  " << Launches(k.key) << "  launches "
      << k.launches_before << " -> " << k.launches_after;
  if (k.time_saved_ns) {
    out << "  " << (*k.time_saved_ns >= 0 ? "time saved " : "time lost ")
        << SignedTime(*k.time_saved_ns);
  }
  out << '\n';
  std::vector<const MetricDelta*> shown;
  std::size_t within = 0, unchanged = 0;
  if (k.duration) shown.push_back(&*k.duration);  // always: the first thing users look for
  for (const MetricDelta& m : k.metrics) {
    if (options.all_rows || m.beyond_noise) {
      shown.push_back(&m);
    } else if (m.delta == 0) {
      ++unchanged;
    } else {
      ++within;
    }
  }
  if (shown.empty()) {
    out << "    no change beyond noise (" << k.metrics.size() << " metrics compared; " << within
        << " changed within noise)\n\n";
    return;
  }
  std::size_t name_width = 20;
  for (const MetricDelta* d : shown)
    name_width = std::max(name_width, TerminalText(d->name).size() + 2);
  out << "    " << std::left << std::setw(static_cast<int>(name_width)) << "Metric" << std::right
      << std::setw(18) << "Before" << std::setw(18) << "After" << std::setw(10) << "Change"
      << "  " << std::left << std::setw(8) << "Verdict"
      << "Noise\n";
  for (const MetricDelta* d : shown) Row(out, *d, name_width);
  if (k.metrics.empty() && !k.duration) out << "    (nothing measured in both reports)\n";
  if (within + unchanged > 0) {
    out << "    (" << within << " metrics changed within noise, " << unchanged
        << " unchanged; --all lists them)\n";
  }
  out << '\n';
}

void WriteOnlyIn(const std::vector<KernelOnlyIn>& kernels, std::string_view which,
                 std::ostream& out) {
  if (kernels.empty()) return;
  out << "  Only in " << which << ":\n";
  for (const KernelOnlyIn& k : kernels) {
    out << "    " << TerminalText(k.function_name) << "  " << Launches(k.key) << "  launches "
        << k.launches;
    if (k.total_time_ns > 0) out << "  time " << SignedTime(k.total_time_ns);
    out << '\n';
  }
  out << '\n';
}

std::string Raw(double value) { return FormatRawNumber(value); }

void CsvRow(std::ostream& out, const KernelKey& key, const std::string& function,
            const std::string& status, std::size_t before_launches, std::size_t after_launches,
            const MetricDelta* d) {
  out << CsvField(function) << ',' << CsvField(key.name) << ',' << CsvField(FormatDim3(key.grid))
      << ',' << CsvField(FormatDim3(key.block)) << ',' << status << ',' << before_launches << ','
      << after_launches;
  if (d) {
    out << ',' << CsvField(d->name) << ',' << CsvField(d->unit) << ',' << Raw(d->before.mean) << ','
        << Raw(d->after.mean) << ',' << Raw(d->delta) << ','
        << (d->relative ? Raw(*d->relative * 100.0) : "") << ','
        << CsvField(DirectionName(d->direction)) << ',' << ChangeName(d->change) << ','
        << (d->beyond_noise ? "yes" : "no") << ',' << Raw(d->noise * 100.0) << ','
        << CsvField(d->noise_source);
  } else {
    out << ",,,,,,,,,,,";
  }
  out << '\n';
}

}  // namespace

void WriteDiffText(const ReportDiff& diff, const DiffFormatOptions& options, std::ostream& out) {
  out << "Comparing kernels (matched by name, grid and block)\n"
      << "  before: " << TerminalText(diff.before_path) << '\n'
      << "  after:  " << TerminalText(diff.after_path) << "\n\n";
  if (diff.kernels.empty()) out << "  No kernel is in both reports.\n\n";
  for (const KernelDiff& k : diff.kernels) WriteKernel(k, options, out);
  WriteOnlyIn(diff.only_before, "before", out);
  WriteOnlyIn(diff.only_after, "after", out);
}

void WriteDiffCsv(const ReportDiff& diff, std::ostream& out) {
  out << "Function,Kernel Name,Grid Size,Block Size,Status,Launches Before,Launches After,"
         "Metric,Unit,Before,After,Delta,Delta %,Direction,Change,Beyond Noise,Noise %,"
         "Noise Source\n";
  for (const KernelDiff& k : diff.kernels) {
    if (k.duration) {
      CsvRow(out, k.key, k.function_name, "matched", k.launches_before, k.launches_after,
             &*k.duration);
    }
    for (const MetricDelta& m : k.metrics) {
      CsvRow(out, k.key, k.function_name, "matched", k.launches_before, k.launches_after, &m);
    }
    if (!k.duration && k.metrics.empty()) {
      CsvRow(out, k.key, k.function_name, "matched", k.launches_before, k.launches_after, nullptr);
    }
  }
  for (const KernelOnlyIn& k : diff.only_before) {
    CsvRow(out, k.key, k.function_name, "only in before", k.launches, 0, nullptr);
  }
  for (const KernelOnlyIn& k : diff.only_after) {
    CsvRow(out, k.key, k.function_name, "only in after", 0, k.launches, nullptr);
  }
}

}  // namespace gpuscope::render

#include "render/roofline_format.h"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "analysis/metrics/section_values.h"
#include "analysis/metrics/value_format.h"
#include "render/escaping.h"

namespace gpuscope::render {

using analysis::metrics::FormatDim3;
using analysis::metrics::FormatMetricNumber;
using analysis::metrics::FormatRawNumber;
using analysis::metrics::ScaledValue;
using analysis::metrics::ScaleValue;
using analysis::metrics::UnitKind;
using analysis::roofline::Bandwidth;
using analysis::roofline::Bound;
using analysis::roofline::BoundName;
using analysis::roofline::FlopRate;
using analysis::roofline::MemoryLevel;
using analysis::roofline::MemoryLevelName;
using analysis::roofline::Precision;
using analysis::roofline::PrecisionName;
using analysis::roofline::RooflineResult;
using analysis::roofline::RooflineVerdict;

namespace {

std::string Scaled(std::optional<double> value, UnitKind kind) {
  if (!value) return "n/a";
  ScaledValue scaled = ScaleValue(kind, "", *value);
  return FormatMetricNumber(scaled.value, true) + " " + scaled.text_unit;
}

std::string Number(std::optional<double> value) {
  return value ? FormatMetricNumber(*value, true) : "n/a";
}

std::string Fixed(std::optional<double> value, int decimals) {
  if (!value) return "n/a";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, *value);
  return text;
}

// Intensities span 1e-4 (a copy through L1) to 1e3 (a register-resident loop): three
// significant digits keep small ones readable.
std::string Intensity(std::optional<double> value) {
  if (!value) return "n/a";
  char text[64];
  std::snprintf(text, sizeof text, "%.3g", *value);
  return text;
}

void Row(std::ostream& out, const std::vector<std::string>& cells, const std::vector<int>& widths) {
  out << "   ";
  for (std::size_t i = 0; i < cells.size(); ++i) {
    // First column left-aligned (names), the numbers right-aligned.
    if (i == 0) {
      out << ' ' << std::left << std::setw(widths[i]) << cells[i];
    } else {
      out << ' ' << std::right << std::setw(widths[i]) << cells[i];
    }
  }
  out << std::left << '\n';
}

std::string CsvCell(std::optional<double> value) {
  if (!value) return "";
  return FormatRawNumber(*value);
}

}  // namespace

void WriteRooflineText(const RooflineResult& r, std::ostream& out) {
  // The kernel name, chip and metric names come from the report: no raw escapes.
  out << "  " << TerminalText(r.kernel_name) << " (" << r.profile_index << ")  grid "
      << FormatDim3(r.grid) << "  block " << FormatDim3(r.block);
  if (!r.chip.empty()) out << "  " << TerminalText(r.chip);
  out << '\n';
  out << "    Duration " << Scaled(r.duration_ns, UnitKind::kDuration) << ", Compute (SM) "
      << "Throughput " << Fixed(r.sm_throughput_pct, 2) << " %, Memory Throughput "
      << Fixed(r.memory_throughput_pct, 2) << " %\n";

  const std::vector<int> flop_widths = {9, 18, 16, 16, 10};
  Row(out, {"Precision", "FLOPs", "Achieved", "Peak", "% of Peak"}, flop_widths);
  for (const FlopRate& rate : r.precisions) {
    if (rate.precision == Precision::kTensor) {
      // Instructions, not FLOPs: see roofline.h.
      Row(out, {"Tensor", Number(rate.flops) + " inst", "n/a", "n/a", Fixed(rate.pct_of_peak, 2)},
          flop_widths);
      continue;
    }
    Row(out,
        {std::string(PrecisionName(rate.precision)), Number(rate.flops),
         Scaled(rate.flop_per_second, UnitKind::kFlopRate),
         Scaled(rate.peak_flop_per_second, UnitKind::kFlopRate), Fixed(rate.pct_of_peak, 2)},
        flop_widths);
  }

  Precision main = r.MainPrecision();
  const std::vector<int> level_widths = {9, 18, 16, 16, 10, 16, 12};
  Row(out,
      {"Level", "Bytes", "Achieved", "Peak", "% of Peak",
       std::string(PrecisionName(main)) + " flop/byte", "Ridge"},
      level_widths);
  const std::optional<double> main_peak = r.rate(main).peak_flop_per_second;
  for (const Bandwidth& bw : r.levels) {
    // The ridge point: the intensity at which this level's roof meets the compute roof.
    std::optional<double> ridge;
    if (main_peak && bw.peak_bytes_per_second && *bw.peak_bytes_per_second > 0) {
      ridge = *main_peak / *bw.peak_bytes_per_second;
    }
    Row(out,
        {std::string(MemoryLevelName(bw.level)), Scaled(bw.bytes, UnitKind::kBytes),
         Scaled(bw.bytes_per_second, UnitKind::kByteRate),
         Scaled(bw.peak_bytes_per_second, UnitKind::kByteRate), Fixed(bw.pct_of_peak, 2),
         Intensity(r.Intensity(main, bw.level)), Intensity(ridge)},
        level_widths);
  }
  for (const Bandwidth& bw : r.levels) {
    if (!bw.peak_source.empty() && bw.peak_source != "metrics") {
      out << "    " << MemoryLevelName(bw.level) << " peak: " << TerminalText(bw.peak_source)
          << '\n';
    }
    if (!bw.busy_source.empty()) {
      out << "    " << MemoryLevelName(bw.level) << " % of peak: " << TerminalText(bw.busy_source)
          << '\n';
    }
  }

  const RooflineVerdict& v = r.verdict;
  out << "    Verdict: " << BoundName(v.bound);
  if (!v.limiter.empty() && v.bound != Bound::kLatency)
    out << " (" << TerminalText(v.limiter) << ")";
  out << ": " << TerminalText(v.reason);
  if (v.headroom && v.bound == Bound::kLatency) {
    out << "; " << Fixed(v.headroom, 2) << "x before the busiest unit reaches its peak";
  } else if (v.headroom && v.bound != Bound::kUnknown) {
    out << "; " << Fixed(v.headroom, 2) << "x headroom to the " << TerminalText(v.limiter)
        << " roof";
  }
  out << '\n';
  if (!r.missing.empty()) {
    out << "    Missing metrics:";
    for (const std::string& name : r.missing) out << ' ' << TerminalText(name);
    out << '\n';
  }
  out << '\n';
}

void WriteRooflineCsv(const std::vector<RooflineResult>& results, std::ostream& out) {
  out << "ID,Kernel Name,Grid Size,Block Size,Duration (ns)";
  for (Precision p : {Precision::kFp64, Precision::kFp32, Precision::kFp16}) {
    std::string name(PrecisionName(p));
    out << ',' << name << " FLOPs," << name << " flop/s," << name << " peak flop/s," << name
        << " % of peak";
  }
  out << ",Tensor inst,Tensor % of peak";
  for (MemoryLevel l : {MemoryLevel::kDram, MemoryLevel::kL2, MemoryLevel::kL1}) {
    std::string name(MemoryLevelName(l));
    out << ',' << name << " bytes," << name << " byte/s," << name << " peak byte/s," << name
        << " % of peak," << name << " flop/byte";
  }
  out << ",Verdict,Limiter,Utilization %,Headroom\n";
  for (const RooflineResult& r : results) {
    out << r.profile_index << ',' << CsvField(r.kernel_name) << ',' << CsvField(FormatDim3(r.grid))
        << ',' << CsvField(FormatDim3(r.block)) << ',' << CsvCell(r.duration_ns);
    for (Precision p : {Precision::kFp64, Precision::kFp32, Precision::kFp16}) {
      const FlopRate& rate = r.rate(p);
      out << ',' << CsvCell(rate.flops) << ',' << CsvCell(rate.flop_per_second) << ','
          << CsvCell(rate.peak_flop_per_second) << ',' << CsvCell(rate.pct_of_peak);
    }
    out << ',' << CsvCell(r.rate(Precision::kTensor).flops) << ','
        << CsvCell(r.rate(Precision::kTensor).pct_of_peak);
    Precision main = r.MainPrecision();
    for (MemoryLevel l : {MemoryLevel::kDram, MemoryLevel::kL2, MemoryLevel::kL1}) {
      const Bandwidth& bw = r.level(l);
      out << ',' << CsvCell(bw.bytes) << ',' << CsvCell(bw.bytes_per_second) << ','
          << CsvCell(bw.peak_bytes_per_second) << ',' << CsvCell(bw.pct_of_peak) << ','
          << CsvCell(r.Intensity(main, l));
    }
    out << ',' << BoundName(r.verdict.bound) << ',' << CsvField(r.verdict.limiter) << ','
        << CsvCell(r.verdict.utilization_pct) << ',' << CsvCell(r.verdict.headroom) << '\n';
  }
}

}  // namespace gpuscope::render

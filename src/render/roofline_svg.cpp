#include "render/roofline_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "analysis/metrics/value_format.h"
#include "render/escaping.h"

namespace gpuscope::render {

using analysis::metrics::FormatMetricNumber;
using analysis::metrics::ScaledValue;
using analysis::metrics::ScaleValue;
using analysis::metrics::UnitKind;
using analysis::roofline::BoundName;
using analysis::roofline::MemoryLevel;
using analysis::roofline::MemoryLevelName;
using analysis::roofline::Precision;
using analysis::roofline::PrecisionName;
using analysis::roofline::RooflineResult;

namespace {

constexpr double kLeft = 90, kTop = 40, kPlotWidth = 640, kPlotHeight = 420;
constexpr const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr const char* kLevelDash[] = {"", "6,3", "2,3"};  // DRAM, L2, L1

struct Axes {
  double x_min, x_max, y_min, y_max;  // log10 bounds
  double X(double intensity) const {
    return kLeft + (std::log10(intensity) - x_min) / (x_max - x_min) * kPlotWidth;
  }
  double Y(double flops) const {
    return kTop + kPlotHeight - (std::log10(flops) - y_min) / (y_max - y_min) * kPlotHeight;
  }
};

std::string Num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

std::string RateLabel(double flops) {
  ScaledValue s = ScaleValue(UnitKind::kFlopRate, "", flops);
  return FormatMetricNumber(s.value, false) + " " + s.text_unit;
}

std::string ByteRateLabel(double bytes) {
  ScaledValue s = ScaleValue(UnitKind::kByteRate, "", bytes);
  return FormatMetricNumber(s.value, false) + " " + s.text_unit;
}

struct Point {
  double intensity, flops;
  int kernel;
  MemoryLevel level;
};

void Marker(std::ostringstream& svg, const Point& p, const Axes& axes) {
  const double x = axes.X(p.intensity), y = axes.Y(p.flops);
  const char* color = kColors[p.kernel % 10];
  switch (p.level) {
    case MemoryLevel::kDram:
      svg << "<circle cx=\"" << Num(x) << "\" cy=\"" << Num(y) << "\" r=\"5\" fill=\"" << color
          << "\"/>\n";
      break;
    case MemoryLevel::kL2:
      svg << "<rect x=\"" << Num(x - 4.5) << "\" y=\"" << Num(y - 4.5)
          << "\" width=\"9\" height=\"9\" fill=\"" << color << "\"/>\n";
      break;
    case MemoryLevel::kL1:
      svg << "<polygon points=\"" << Num(x) << ',' << Num(y - 6) << ' ' << Num(x - 5.5) << ','
          << Num(y + 4) << ' ' << Num(x + 5.5) << ',' << Num(y + 4) << "\" fill=\"" << color
          << "\"/>\n";
      break;
  }
}

}  // namespace

std::string RooflineSvg(const std::vector<RooflineResult>& results) {
  // The device's roofs: the first result that has each.
  std::vector<std::pair<Precision, double>> compute_roofs;
  std::vector<std::pair<MemoryLevel, double>> memory_roofs;
  for (Precision p : {Precision::kFp64, Precision::kFp32, Precision::kFp16}) {
    for (const RooflineResult& r : results) {
      if (r.rate(p).peak_flop_per_second) {
        compute_roofs.emplace_back(p, *r.rate(p).peak_flop_per_second);
        break;
      }
    }
  }
  for (MemoryLevel l : {MemoryLevel::kDram, MemoryLevel::kL2, MemoryLevel::kL1}) {
    for (const RooflineResult& r : results) {
      if (r.level(l).peak_bytes_per_second) {
        memory_roofs.emplace_back(l, *r.level(l).peak_bytes_per_second);
        break;
      }
    }
  }
  std::vector<Point> points;
  std::vector<std::string> off_chart;
  for (std::size_t k = 0; k < results.size(); ++k) {
    const RooflineResult& r = results[k];
    Precision main = r.MainPrecision();
    std::optional<double> achieved = r.rate(main).flop_per_second;
    bool placed = false;
    for (MemoryLevel l : {MemoryLevel::kDram, MemoryLevel::kL2, MemoryLevel::kL1}) {
      std::optional<double> intensity = r.Intensity(main, l);
      if (achieved && *achieved > 0 && intensity && *intensity > 0) {
        points.push_back({*intensity, *achieved, static_cast<int>(k), l});
        placed = true;
      }
    }
    if (!placed) off_chart.push_back(r.kernel_name + " (" + std::to_string(r.profile_index) + ")");
  }

  // Bounds: whole decades around the points and the roofs' ridge points.
  double x_lo = 1e-2, x_hi = 1e3, y_hi = 1e12, y_lo = 1e9;
  for (const auto& [p, peak] : compute_roofs) y_hi = std::max(y_hi, peak);
  for (const auto& [p, peak] : compute_roofs) {
    for (const auto& [l, bw] : memory_roofs) {
      x_lo = std::min(x_lo, peak / bw / 10);
      x_hi = std::max(x_hi, peak / bw * 10);
    }
  }
  for (const Point& p : points) {
    x_lo = std::min(x_lo, p.intensity);
    x_hi = std::max(x_hi, p.intensity);
    y_lo = std::min(y_lo, p.flops);
    y_hi = std::max(y_hi, p.flops);
  }
  Axes axes{std::floor(std::log10(x_lo)), std::ceil(std::log10(x_hi)), std::floor(std::log10(y_lo)),
            std::ceil(std::log10(y_hi * 1.5))};

  const double legend_rows = static_cast<double>(results.size() + off_chart.size() + 2);
  const double width = kLeft + kPlotWidth + 320;
  const double height = std::max(kTop + kPlotHeight + 60, kTop + 20 * legend_rows + 40);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Num(width) << "\" height=\""
      << Num(height) << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << Num(kLeft) << "\" y=\"22\" font-size=\"15\">Roofline";
  if (!results.empty() && !results.front().chip.empty()) {
    svg << " (" << XmlEscaped(results.front().chip) << ")";
  }
  svg << "</text>\n";
  // Decade grid and labels.
  for (double e = axes.x_min; e <= axes.x_max; ++e) {
    double x = axes.X(std::pow(10.0, e));
    svg << "<line x1=\"" << Num(x) << "\" y1=\"" << Num(kTop) << "\" x2=\"" << Num(x) << "\" y2=\""
        << Num(kTop + kPlotHeight) << "\" stroke=\"#ddd\"/>\n";
    svg << "<text x=\"" << Num(x) << "\" y=\"" << Num(kTop + kPlotHeight + 16)
        << "\" text-anchor=\"middle\">1e" << static_cast<int>(e) << "</text>\n";
  }
  for (double e = axes.y_min; e <= axes.y_max; ++e) {
    double y = axes.Y(std::pow(10.0, e));
    svg << "<line x1=\"" << Num(kLeft) << "\" y1=\"" << Num(y) << "\" x2=\""
        << Num(kLeft + kPlotWidth) << "\" y2=\"" << Num(y) << "\" stroke=\"#ddd\"/>\n";
    svg << "<text x=\"" << Num(kLeft - 6) << "\" y=\"" << Num(y + 4) << "\" text-anchor=\"end\">"
        << RateLabel(std::pow(10.0, e)) << "</text>\n";
  }
  svg << "<rect x=\"" << Num(kLeft) << "\" y=\"" << Num(kTop) << "\" width=\"" << Num(kPlotWidth)
      << "\" height=\"" << Num(kPlotHeight) << "\" fill=\"none\" stroke=\"black\"/>\n";
  svg << "<text x=\"" << Num(kLeft + kPlotWidth / 2) << "\" y=\"" << Num(kTop + kPlotHeight + 36)
      << "\" text-anchor=\"middle\">Arithmetic intensity [FLOP/byte]</text>\n";
  svg << "<text transform=\"translate(16," << Num(kTop + kPlotHeight / 2)
      << ") rotate(-90)\" text-anchor=\"middle\">Performance [FLOP/s]</text>\n";

  // Roofs: for each level and precision, bandwidth x intensity up to the ridge, then flat.
  const double x_left = std::pow(10.0, axes.x_min), x_right = std::pow(10.0, axes.x_max);
  for (const auto& [l, bw] : memory_roofs) {
    for (const auto& [p, peak] : compute_roofs) {
      double ridge = peak / bw;
      double start = std::max(x_left, std::pow(10.0, axes.y_min) / bw);
      if (ridge <= start) continue;
      svg << "<polyline fill=\"none\" stroke=\"black\" stroke-width=\"1.5\"";
      if (*kLevelDash[static_cast<int>(l)]) {
        svg << " stroke-dasharray=\"" << kLevelDash[static_cast<int>(l)] << "\"";
      }
      svg << " points=\"" << Num(axes.X(start)) << ',' << Num(axes.Y(start * bw)) << ' '
          << Num(axes.X(ridge)) << ',' << Num(axes.Y(peak)) << ' ' << Num(axes.X(x_right)) << ','
          << Num(axes.Y(peak)) << "\"/>\n";
    }
    // Label the diagonal near its lower end.
    double at = std::max(x_left, std::pow(10.0, axes.y_min) / bw) * 3;
    svg << "<text x=\"" << Num(axes.X(at) + 4) << "\" y=\"" << Num(axes.Y(at * bw) - 6)
        << "\" font-size=\"11\">" << MemoryLevelName(l) << " " << ByteRateLabel(bw) << "</text>\n";
  }
  for (const auto& [p, peak] : compute_roofs) {
    svg << "<text x=\"" << Num(kLeft + kPlotWidth - 4) << "\" y=\"" << Num(axes.Y(peak) - 4)
        << "\" text-anchor=\"end\" font-size=\"11\">" << PrecisionName(p) << " peak "
        << RateLabel(peak) << "</text>\n";
  }
  for (const Point& p : points) Marker(svg, p, axes);

  // Legend.
  const double lx = kLeft + kPlotWidth + 20;
  double ly = kTop + 10;
  svg << "<text x=\"" << Num(lx) << "\" y=\"" << Num(ly)
      << "\">circle DRAM, square L2, triangle L1; roofs: solid DRAM, dashed L2, dotted L1</text>\n";
  ly += 20;
  for (std::size_t k = 0; k < results.size(); ++k) {
    const RooflineResult& r = results[k];
    svg << "<rect x=\"" << Num(lx) << "\" y=\"" << Num(ly - 9) << "\" width=\"10\" height=\"10\""
        << " fill=\"" << kColors[k % 10] << "\"/>\n";
    svg << "<text x=\"" << Num(lx + 16) << "\" y=\"" << Num(ly) << "\">"
        << XmlEscaped(r.kernel_name) << " (" << r.profile_index << ") "
        << PrecisionName(r.MainPrecision()) << ", " << BoundName(r.verdict.bound) << "</text>\n";
    ly += 20;
  }
  if (!off_chart.empty()) {
    svg << "<text x=\"" << Num(lx) << "\" y=\"" << Num(ly) << "\">No FLOPs, not placed:</text>\n";
    ly += 20;
    for (const std::string& name : off_chart) {
      svg << "<text x=\"" << Num(lx + 16) << "\" y=\"" << Num(ly) << "\">" << XmlEscaped(name)
          << "</text>\n";
      ly += 20;
    }
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace gpuscope::render

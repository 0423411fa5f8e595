#include "render/roofline_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "analysis/metrics/value_format.h"
#include "render/escaping.h"
#include "render/svg_number.h"

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
constexpr int kPalette = static_cast<int>(std::size(kColors));
// Past the palette, kernels keep apart by their marker's fill: solid, then hollow (a thick
// outline in the colour), then half-tone; past those, by a darker shade of the colour.
enum class Fill { kSolid, kHollow, kHalf };
constexpr int kFills = 3;

struct KernelStyle {
  std::string color;
  Fill fill = Fill::kSolid;
};

KernelStyle StyleOf(int kernel) {
  const int round = kernel / kPalette;
  KernelStyle style{kColors[kernel % kPalette], static_cast<Fill>(round % kFills)};
  if (round >= kFills) {
    // A darker shade per further round: each (colour, fill) pair stays unique.
    const int shade = round / kFills;
    unsigned rgb = 0;
    std::sscanf(style.color.c_str() + 1, "%x", &rgb);
    auto dark = [&](int shift) {
      return static_cast<unsigned>(((rgb >> shift) & 0xff) / (1 + shade));
    };
    char text[8];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", dark(16), dark(8), dark(0));
    style.color = text;
  }
  return style;
}

// The fill and stroke attributes of a marker in `style`.
std::string Paint(const KernelStyle& style) {
  switch (style.fill) {
    case Fill::kSolid:
      return "fill=\"" + style.color + "\"";
    case Fill::kHollow:
      return "fill=\"white\" stroke=\"" + style.color + "\" stroke-width=\"2\"";
    case Fill::kHalf:
      return "fill=\"" + style.color + "\" fill-opacity=\"0.4\" stroke=\"" + style.color +
             "\" stroke-width=\"1.5\"";
  }
  return {};
}

// Text boxes, laid out here: an SVG has no layout engine. Widths are estimated from the
// character count at 0.65 em, above the average advance of the usual sans-serif fonts
// (DejaVu Sans digits: 0.64 em), so that a label never grows past its box when drawn.
constexpr double kCharWidthEm = 0.65;
double TextWidth(const std::string& text, double font_size) {
  std::size_t chars = 0;
  for (unsigned char c : text) chars += (c & 0xC0) != 0x80;  // UTF-8: count code points
  return static_cast<double>(chars) * font_size * kCharWidthEm;
}

struct Box {
  double x0, y0, x1, y1;
  bool Intersects(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};
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
  const std::string paint = Paint(StyleOf(p.kernel));
  const std::string data =
      " class=\"roof-point\" data-kernel=\"" + std::to_string(p.kernel) + "\" ";
  switch (p.level) {
    case MemoryLevel::kDram:
      svg << "<circle" << data << "cx=\"" << SvgNumber(x) << "\" cy=\"" << SvgNumber(y)
          << "\" r=\"5\" " << paint << "/>\n";
      break;
    case MemoryLevel::kL2:
      svg << "<rect" << data << "x=\"" << SvgNumber(x - 4.5) << "\" y=\"" << SvgNumber(y - 4.5)
          << "\" width=\"9\" height=\"9\" " << paint << "/>\n";
      break;
    case MemoryLevel::kL1:
      svg << "<polygon" << data << "points=\"" << SvgNumber(x) << ',' << SvgNumber(y - 6) << ' '
          << SvgNumber(x - 5.5) << ',' << SvgNumber(y + 4) << ' ' << SvgNumber(x + 5.5) << ','
          << SvgNumber(y + 4) << "\" " << paint << "/>\n";
      break;
  }
}

// Places roof labels so that no two overlap: each is tried at its preferred place, then at
// the given alternatives in order, and the first free place is kept.
class LabelPlacer {
 public:
  // Tries (x, baseline y) candidates for `text` (anchored at its start or end); returns the
  // chosen one. Boxes span from the baseline up by the font size and down by a quarter of it.
  std::pair<double, double> Place(const std::string& text, double font_size, bool anchor_end,
                                  const std::vector<std::pair<double, double>>& candidates) {
    const double width = TextWidth(text, font_size);
    auto box_at = [&](std::pair<double, double> at) {
      const double x0 = anchor_end ? at.first - width : at.first;
      return Box{x0, at.second - font_size, x0 + width, at.second + font_size * 0.25};
    };
    for (const auto& at : candidates) {
      Box box = box_at(at);
      bool free = std::none_of(placed_.begin(), placed_.end(),
                               [&](const Box& other) { return box.Intersects(other); });
      if (free) {
        placed_.push_back(box);
        return at;
      }
    }
    placed_.push_back(box_at(candidates.back()));  // every place taken: the last resort
    return candidates.back();
  }

 private:
  std::vector<Box> placed_;
};

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

  // The legend's lines, measured so that the chart is as wide as its longest one.
  constexpr double kFont = 12;
  const std::string key =
      "circle DRAM, square L2, triangle L1; roofs: solid DRAM, dashed L2, dotted L1";
  std::vector<std::string> legend;
  for (const RooflineResult& r : results) {
    legend.push_back(r.kernel_name + " (" + std::to_string(r.profile_index) + ") " +
                     std::string(PrecisionName(r.MainPrecision())) + ", " +
                     std::string(BoundName(r.verdict.bound)));
  }
  double legend_width = TextWidth(key, kFont);
  for (const std::string& line : legend)
    legend_width = std::max(legend_width, 16 + TextWidth(line, kFont));
  for (const std::string& name : off_chart)
    legend_width = std::max(legend_width, 16 + TextWidth(name, kFont));
  const double legend_rows = static_cast<double>(results.size() + off_chart.size() + 2);
  const double width = kLeft + kPlotWidth + 20 + legend_width + 20;
  const double height = std::max(kTop + kPlotHeight + 60, kTop + 20 * legend_rows + 40);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << SvgNumber(width) << "\" height=\""
      << SvgNumber(height) << "\" viewBox=\"0 0 " << SvgNumber(width) << ' ' << SvgNumber(height)
      << "\" font-family=\"sans-serif\" font-size=\"" << SvgNumber(kFont) << "\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << SvgNumber(kLeft) << "\" y=\"22\" font-size=\"15\">Roofline";
  if (!results.empty() && !results.front().chip.empty()) {
    svg << " (" << XmlEscaped(results.front().chip) << ")";
  }
  svg << "</text>\n";
  // Decade grid and labels.
  for (double e = axes.x_min; e <= axes.x_max; ++e) {
    double x = axes.X(std::pow(10.0, e));
    svg << "<line x1=\"" << SvgNumber(x) << "\" y1=\"" << SvgNumber(kTop) << "\" x2=\""
        << SvgNumber(x) << "\" y2=\"" << SvgNumber(kTop + kPlotHeight) << "\" stroke=\"#ddd\"/>\n";
    svg << "<text x=\"" << SvgNumber(x) << "\" y=\"" << SvgNumber(kTop + kPlotHeight + 16)
        << "\" text-anchor=\"middle\">1e" << static_cast<int>(e) << "</text>\n";
  }
  for (double e = axes.y_min; e <= axes.y_max; ++e) {
    double y = axes.Y(std::pow(10.0, e));
    svg << "<line x1=\"" << SvgNumber(kLeft) << "\" y1=\"" << SvgNumber(y) << "\" x2=\""
        << SvgNumber(kLeft + kPlotWidth) << "\" y2=\"" << SvgNumber(y) << "\" stroke=\"#ddd\"/>\n";
    svg << "<text x=\"" << SvgNumber(kLeft - 6) << "\" y=\"" << SvgNumber(y + 4)
        << "\" text-anchor=\"end\">" << RateLabel(std::pow(10.0, e)) << "</text>\n";
  }
  svg << "<rect x=\"" << SvgNumber(kLeft) << "\" y=\"" << SvgNumber(kTop) << "\" width=\""
      << SvgNumber(kPlotWidth) << "\" height=\"" << SvgNumber(kPlotHeight)
      << "\" fill=\"none\" stroke=\"black\"/>\n";
  svg << "<text x=\"" << SvgNumber(kLeft + kPlotWidth / 2) << "\" y=\""
      << SvgNumber(kTop + kPlotHeight + 36)
      << "\" text-anchor=\"middle\">Arithmetic intensity [FLOP/byte]</text>\n";
  svg << "<text transform=\"translate(16," << SvgNumber(kTop + kPlotHeight / 2)
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
      svg << " points=\"" << SvgNumber(axes.X(start)) << ',' << SvgNumber(axes.Y(start * bw)) << ' '
          << SvgNumber(axes.X(ridge)) << ',' << SvgNumber(axes.Y(peak)) << ' '
          << SvgNumber(axes.X(x_right)) << ',' << SvgNumber(axes.Y(peak)) << "\"/>\n";
    }
  }
  // Roof labels. Precisions with the same peak (FP32 and FP16 on GH100) share one label; the
  // flat roofs' labels come first, right-aligned above their line (else below it, else
  // stacked lower); then each diagonal's, near its lower end, moved up the diagonal until free.
  constexpr double kLabelFont = 11;
  LabelPlacer labels;
  std::vector<std::pair<std::string, double>> flat_labels;  // text, peak
  for (const auto& [p, peak] : compute_roofs) {
    auto same = std::find_if(flat_labels.begin(), flat_labels.end(), [&](const auto& label) {
      return std::abs(label.second - peak) <= 0.005 * peak;
    });
    if (same != flat_labels.end()) {
      same->first.insert(same->first.find(" peak "),
                         std::string(", ") + std::string(PrecisionName(p)));
    } else {
      flat_labels.emplace_back(std::string(PrecisionName(p)) + " peak " + RateLabel(peak), peak);
    }
  }
  auto label = [&](const std::string& text, std::pair<double, double> at, bool anchor_end) {
    svg << "<text class=\"roof-label\" x=\"" << SvgNumber(at.first) << "\" y=\""
        << SvgNumber(at.second) << "\"" << (anchor_end ? " text-anchor=\"end\"" : "")
        << " font-size=\"" << SvgNumber(kLabelFont) << "\">" << text << "</text>\n";
  };
  for (const auto& [text, peak] : flat_labels) {
    const double x = kLeft + kPlotWidth - 4, y = axes.Y(peak);
    std::vector<std::pair<double, double>> at = {{x, y - 4}, {x, y + kLabelFont + 2}};
    for (int step = 2; step < 12; ++step) at.push_back({x, y + step * (kLabelFont + 2)});
    label(text, labels.Place(text, kLabelFont, true, at), true);
  }
  for (const auto& [l, bw] : memory_roofs) {
    const std::string text = std::string(MemoryLevelName(l)) + " " + ByteRateLabel(bw);
    const double low = std::max(x_left, std::pow(10.0, axes.y_min) / bw) * 3;
    std::vector<std::pair<double, double>> at;
    for (int step = 0; step < 24; ++step) {
      const double x = low * std::pow(10.0, step * 0.125);
      at.push_back({axes.X(x) + 4, axes.Y(x * bw) - 6});
    }
    label(text, labels.Place(text, kLabelFont, false, at), false);
  }
  for (const Point& p : points) Marker(svg, p, axes);

  // Legend.
  const double lx = kLeft + kPlotWidth + 20;
  double ly = kTop + 10;
  svg << "<text class=\"legend\" x=\"" << SvgNumber(lx) << "\" y=\"" << SvgNumber(ly) << "\">"
      << key << "</text>\n";
  ly += 20;
  for (std::size_t k = 0; k < results.size(); ++k) {
    svg << "<circle class=\"legend-marker\" data-kernel=\"" << k << "\" cx=\"" << SvgNumber(lx + 5)
        << "\" cy=\"" << SvgNumber(ly - 4) << "\" r=\"5\" " << Paint(StyleOf(static_cast<int>(k)))
        << "/>\n";
    svg << "<text class=\"legend\" x=\"" << SvgNumber(lx + 16) << "\" y=\"" << SvgNumber(ly)
        << "\">" << XmlEscaped(legend[k]) << "</text>\n";
    ly += 20;
  }
  if (!off_chart.empty()) {
    svg << "<text class=\"legend\" x=\"" << SvgNumber(lx) << "\" y=\"" << SvgNumber(ly)
        << "\">No FLOPs, not placed:</text>\n";
    ly += 20;
    for (const std::string& name : off_chart) {
      svg << "<text class=\"legend\" x=\"" << SvgNumber(lx + 16) << "\" y=\"" << SvgNumber(ly)
          << "\">" << XmlEscaped(name) << "</text>\n";
      ly += 20;
    }
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace gpuscope::render

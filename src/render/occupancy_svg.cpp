#include "render/occupancy_svg.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "render/escaping.h"
#include "render/occupancy_format.h"
#include "render/svg_number.h"

namespace gpuscope::render {

using analysis::ArchitectureLimits;
using analysis::OccupancyGraph;
using analysis::OccupancyGraphKind;
using analysis::OccupancyGraphPoint;
using analysis::OccupancyInput;
using analysis::OccupancyResult;

namespace {

// Layout, in SVG user units. Three panels side by side under a two-line heading.
constexpr double kPanelWidth = 330;
constexpr double kLeftMargin = 20;
constexpr double kPlotLeftInset = 48;  // room for the y tick labels
constexpr double kPanelPlotWidth = 255;
constexpr double kPlotTop = 86;
constexpr double kPanelPlotHeight = 180;
constexpr double kWidth = 2 * kLeftMargin + 3 * kPanelWidth;
constexpr double kHeight = 330;
constexpr int kXTicks = 4;  // about this many intervals on the x axis

// Tick labels: whole numbers without decimals, others with one.
std::string Compact(double value) {
  char text[32];
  const bool whole = value == static_cast<double>(static_cast<long long>(value));
  std::snprintf(text, sizeof text, whole ? "%.0f" : "%.1f", value);
  return text;
}

std::string Text(double x, double y, std::string_view anchor, std::string_view css_class,
                 std::string_view content, std::string_view extra_attributes = {}) {
  return "<text x=\"" + SvgNumber(x) + "\" y=\"" + SvgNumber(y) + "\" text-anchor=\"" +
         std::string(anchor) + "\" class=\"" + std::string(css_class) + "\"" +
         std::string(extra_attributes) + ">" + XmlEscaped(content) + "</text>\n";
}

std::string XTickLabel(const OccupancyGraph& graph, double value) {
  if (graph.kind == OccupancyGraphKind::kSharedMemory) return Compact(value / 1024.0) + " KB";
  return Compact(value);
}

class Panel {
 public:
  Panel(const OccupancyGraph& graph, int max_warps, int index)
      : graph_(graph),
        max_warps_(max_warps),
        left_(kLeftMargin + index * kPanelWidth + kPlotLeftInset),
        x_min_(static_cast<double>(graph.points.front().x)),
        x_max_(static_cast<double>(graph.points.back().x)) {}

  double X(double value) const {
    const double span = x_max_ > x_min_ ? x_max_ - x_min_ : 1;
    return left_ + (std::clamp(value, x_min_, x_max_) - x_min_) / span * kPanelPlotWidth;
  }
  double Y(double warps) const {
    return kPlotTop + kPanelPlotHeight - warps / std::max(max_warps_, 1) * kPanelPlotHeight;
  }

  std::string Render(int launch_warps) const {
    std::string svg = "<g id=\"" + XmlEscaped(graph_.id) + "\">\n";
    svg += Text(left_ + kPanelPlotWidth / 2, kPlotTop - 12, "middle", "title", graph_.title);
    svg += Axes();
    svg += "<polyline class=\"curve\" points=\"";
    for (const OccupancyGraphPoint& point : graph_.points) {
      svg += SvgNumber(X(static_cast<double>(point.x))) + "," +
             SvgNumber(Y(point.active_warps_per_sm)) + " ";
    }
    svg += "\"/>\n";
    const double mx = X(static_cast<double>(graph_.current_x));
    const double my = Y(launch_warps);
    svg +=
        "<circle class=\"launch\" cx=\"" + SvgNumber(mx) + "\" cy=\"" + SvgNumber(my) +
        "\" r=\"5\">" + "<title>" +
        XmlEscaped("launch: " + std::to_string(graph_.current_x) + " " +
                   std::string(graph_.x_label) + ", " + std::to_string(launch_warps) + " warps") +
        "</title></circle>\n";
    svg += "</g>\n";
    return svg;
  }

 private:
  std::string Axes() const {
    std::string svg;
    const double bottom = kPlotTop + kPanelPlotHeight;
    svg += "<rect class=\"frame\" x=\"" + SvgNumber(left_) + "\" y=\"" + SvgNumber(kPlotTop) +
           "\" width=\"" + SvgNumber(kPanelPlotWidth) + "\" height=\"" +
           SvgNumber(kPanelPlotHeight) + "\"/>\n";
    for (int quarter = 0; quarter <= 4; ++quarter) {
      const double warps = max_warps_ * quarter / 4.0;
      const double y = Y(warps);
      svg += "<line class=\"grid\" x1=\"" + SvgNumber(left_) + "\" y1=\"" + SvgNumber(y) +
             "\" x2=\"" + SvgNumber(left_ + kPanelPlotWidth) + "\" y2=\"" + SvgNumber(y) + "\"/>\n";
      svg += Text(left_ - 6, y + 4, "end", "tick", Compact(warps));
    }
    for (double value : XTicks()) {
      svg += Text(X(value), bottom + 16, "middle", "tick", XTickLabel(graph_, value));
    }
    svg += Text(left_ + kPanelPlotWidth / 2, bottom + 36, "middle", "axis",
                graph_.kind == OccupancyGraphKind::kSharedMemory ? "shared memory per block"
                                                                 : graph_.x_label);
    const double label_x = left_ - 34, label_y = kPlotTop + kPanelPlotHeight / 2;
    svg += Text(label_x, label_y, "middle", "axis", "active warps per SM",
                " transform=\"rotate(-90 " + SvgNumber(label_x) + " " + SvgNumber(label_y) + ")\"");
    return svg;
  }

  // The ends of the axis and the multiples of a power of two in between (block sizes,
  // register counts and shared-memory sizes are read in such steps: 256 threads, 64
  // registers, 64 KB). A multiple crowding the last tick is left out.
  std::vector<double> XTicks() const {
    const long long low = static_cast<long long>(x_min_), high = static_cast<long long>(x_max_);
    long long step = 1;
    while (step * kXTicks < high - low) step *= 2;
    std::vector<double> ticks = {static_cast<double>(low)};
    for (long long value = (low / step + 1) * step; value < high; value += step) {
      if (3 * (high - value) >= step) ticks.push_back(static_cast<double>(value));
    }
    if (high > low) ticks.push_back(static_cast<double>(high));
    return ticks;
  }

  const OccupancyGraph& graph_;
  int max_warps_;
  double left_;
  double x_min_, x_max_;
};

std::string Heading(const ArchitectureLimits& arch, const OccupancyInput& input,
                    const OccupancyResult& result) {
  char occupancy[32];
  std::snprintf(occupancy, sizeof occupancy, "%.2f", result.occupancy_percent);
  std::string line1 = "Theoretical occupancy, compute capability " + arch.Name() + " (" +
                      std::string(arch.family) + ")";
  std::string line2 = std::to_string(input.threads_per_block) + " threads, " +
                      std::to_string(input.registers_per_thread) + " registers/thread, " +
                      std::to_string(input.static_shared_memory) + " B static + " +
                      std::to_string(input.dynamic_shared_memory) +
                      " B dynamic shared memory: " + std::to_string(result.active_warps_per_sm) +
                      " of " + std::to_string(result.max_warps_per_sm) + " warps (" + occupancy +
                      " %), limited by " + JoinResourceNames(result.Limiters(), ", ");
  if (result.blocks_per_sm == 0) line2 += " (cannot launch)";
  return Text(kLeftMargin, 26, "start", "heading", line1) +
         Text(kLeftMargin, 46, "start", "subheading", line2);
}

}  // namespace

std::string OccupancySvg(const ArchitectureLimits& arch, const OccupancyInput& input,
                         const OccupancyResult& result, const std::vector<OccupancyGraph>& graphs) {
  std::string svg =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
      SvgNumber(kWidth) + "\" height=\"" + SvgNumber(kHeight) + "\" viewBox=\"0 0 " +
      SvgNumber(kWidth) + " " + SvgNumber(kHeight) +
      "\">\n"
      "<style>\n"
      "text { font-family: sans-serif; fill: #222; }\n"
      ".heading { font-size: 15px; font-weight: bold; }\n"
      ".subheading { font-size: 12px; }\n"
      ".title { font-size: 13px; font-weight: bold; }\n"
      ".tick { font-size: 10px; fill: #555; }\n"
      ".axis { font-size: 11px; }\n"
      ".frame { fill: #fafafa; stroke: #999; }\n"
      ".grid { stroke: #ddd; }\n"
      ".curve { fill: none; stroke: #2a6fdb; stroke-width: 2; }\n"
      ".launch { fill: #d62728; stroke: #fff; stroke-width: 1.5; }\n"
      "</style>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  svg += Heading(arch, input, result);
  int index = 0;
  for (const OccupancyGraph& graph : graphs) {
    if (graph.points.empty()) continue;
    Panel panel(graph, result.max_warps_per_sm, index++);
    svg += panel.Render(result.active_warps_per_sm);
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace gpuscope::render

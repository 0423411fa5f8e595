// The text, CSV and SVG forms of a result.
#include <gtest/gtest.h>

#include <sstream>

#include "../support/xml_checker.h"
#include "render/escaping.h"
#include "render/occupancy_format.h"
#include "render/occupancy_svg.h"

namespace gpuscope::analysis {
namespace {

using render::OccupancySvg;
using render::WriteOccupancyCsv;
using render::WriteOccupancyGraphsCsv;
using render::WriteOccupancyGraphsText;
using render::WriteOccupancyText;
using render::XmlEscaped;

struct Example {
  ArchitectureLimits arch;
  OccupancyInput input;
  OccupancyResult result;
  std::vector<OccupancyGraph> graphs;
};

Example Make(std::string_view cc, int threads, int registers, std::int64_t static_smem,
             std::int64_t dynamic_smem = 0) {
  Example e;
  e.arch = ParseComputeCapability(cc).value();
  e.input.threads_per_block = threads;
  e.input.registers_per_thread = registers;
  e.input.static_shared_memory = static_smem;
  e.input.dynamic_shared_memory = dynamic_smem;
  e.result = ComputeOccupancy(e.arch, e.input).value();
  e.graphs = ComputeOccupancyGraphs(e.arch, e.input).value();
  return e;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool HasLine(const std::string& text, std::string_view start, std::string_view value) {
  for (const std::string& line : Lines(text)) {
    std::string_view view = line;
    while (view.starts_with(' ')) view.remove_prefix(1);
    if (!view.starts_with(start)) continue;
    view.remove_prefix(start.size());
    while (view.starts_with(' ')) view.remove_prefix(1);
    if (view == value) return true;
  }
  return false;
}

std::vector<std::string> CsvCells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += c;
    }
  }
  cells.push_back(cell);
  return cells;
}

TEST(OccupancyText, ShowsLimitsLimiterAndResult) {
  Example e = Make("9.0", 256, 40, 1984);
  std::ostringstream out;
  WriteOccupancyText(e.arch, e.input, e.result, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("Theoretical occupancy on compute capability 9.0 (Hopper)"),
            std::string::npos)
      << text;
  EXPECT_TRUE(HasLine(text, "Threads per block", "256 (8 warps)")) << text;
  EXPECT_TRUE(HasLine(text, "Block Limit Warps", "8")) << text;
  EXPECT_TRUE(HasLine(text, "Block Limit Registers", "6  <- limiter")) << text;
  EXPECT_TRUE(HasLine(text, "Block Limit Shared Mem", "76")) << text;
  EXPECT_TRUE(HasLine(text, "Block Limit SM", "32")) << text;
  EXPECT_TRUE(HasLine(text, "Block Limit Barriers", "64")) << text;
  EXPECT_TRUE(HasLine(text, "Shared memory", "3072 bytes (1024 reserved by the driver)")) << text;
  EXPECT_TRUE(HasLine(text, "Theoretical Active Warps per SM", "48 of 64")) << text;
  EXPECT_TRUE(HasLine(text, "Theoretical Occupancy", "75.00 %")) << text;
  EXPECT_TRUE(HasLine(text, "Limited by", "registers")) << text;
  EXPECT_EQ(text.find("cannot launch"), std::string::npos);
}

TEST(OccupancyText, SaysWhyAConfigurationCannotLaunch) {
  Example e = Make("9.0", 1024, 32, 16896, 48 * 1024);
  std::ostringstream out;
  WriteOccupancyText(e.arch, e.input, e.result, out);
  const std::string text = out.str();
  EXPECT_TRUE(HasLine(text, "Theoretical Occupancy", "0.00 %")) << text;
  EXPECT_TRUE(HasLine(text, "Block Limit Shared Mem", "0  <- limiter")) << text;
  EXPECT_NE(text.find("This configuration cannot launch: no block fits on an SM. Shared memory: "
                      "the launch asks for 49152 bytes of dynamic shared memory"),
            std::string::npos)
      << text;
}

TEST(OccupancyText, UnusedResourcesAreUnlimited) {
  Example e = Make("7.5", 64, 0, 0);
  std::ostringstream out;
  WriteOccupancyText(e.arch, e.input, e.result, out);
  EXPECT_TRUE(HasLine(out.str(), "Block Limit Registers", "unlimited")) << out.str();
  EXPECT_TRUE(HasLine(out.str(), "Block Limit Shared Mem", "unlimited")) << out.str();
}

TEST(OccupancyGraphsText, MergesEqualPointsAndMarksTheLaunch) {
  Example e = Make("9.0", 256, 40, 1984);
  std::ostringstream out;
  WriteOccupancyGraphsText(e.graphs, out);
  const std::vector<std::string> lines = Lines(out.str());
  // Registers 1..24 give 8 blocks limited by warps alone: one row; 25..32 tie with the
  // register limit (8 blocks too), a row of their own.
  bool merged = false, tie = false, marked_registers = false, marked_shared = false;
  int marks = 0;
  for (const std::string& line : lines) {
    if (line.find(" 1-24 ") != std::string::npos && line.ends_with("100.00%  warps")) {
      merged = true;
    }
    if (line.find(" 25-32 ") != std::string::npos && line.ends_with("100.00%  warps, registers")) {
      tie = true;
    }
    if (line.starts_with("  * ")) {
      ++marks;
      // 33 to 40 registers all allocate 1280 per warp: 6 blocks.
      if (line.find("33-40") != std::string::npos) marked_registers = true;
      if (line.find("0-") != std::string::npos && line.find(" 6 ") != std::string::npos &&
          line.find("75.00%") != std::string::npos) {
        marked_shared = true;
      }
    }
  }
  EXPECT_TRUE(merged) << out.str();
  EXPECT_TRUE(tie) << out.str();
  EXPECT_TRUE(marked_registers) << out.str();
  EXPECT_TRUE(marked_shared) << out.str();
  EXPECT_EQ(marks, 3) << out.str();  // one row per graph holds the launch
  // The shared-memory graph's ~1800 points collapse to a few dozen rows.
  EXPECT_LT(lines.size(), 200u);
}

TEST(OccupancyCsv, OneRowWithEveryColumn) {
  Example e = Make("9.0", 256, 40, 1984);
  std::ostringstream out;
  WriteOccupancyCsv(e.arch, e.input, e.result, out);
  std::vector<std::string> lines = Lines(out.str());
  ASSERT_EQ(lines.size(), 2u) << out.str();
  std::vector<std::string> header = CsvCells(lines[0]);
  std::vector<std::string> row = CsvCells(lines[1]);
  ASSERT_EQ(header.size(), row.size());
  auto cell = [&](std::string_view name) {
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return row[i];
    }
    ADD_FAILURE() << "no column " << name;
    return std::string();
  };
  EXPECT_EQ(cell("compute_capability"), "9.0");
  EXPECT_EQ(cell("blocks_per_sm"), "6");
  EXPECT_EQ(cell("active_warps_per_sm"), "48");
  EXPECT_EQ(cell("occupancy_percent"), "75.0000");
  EXPECT_EQ(cell("block_limit_registers"), "6");
  EXPECT_EQ(cell("block_limit_shared_memory"), "76");
  EXPECT_EQ(cell("limiters"), "registers");
  EXPECT_EQ(cell("max_dynamic_shared_memory"), "47168");  // 48 KB - 1984
  EXPECT_EQ(cell("carveout_percent"), "");
  EXPECT_EQ(cell("cannot_launch_reason"), "");
}

TEST(OccupancyCsv, ReasonWithCommasIsQuoted) {
  Example e = Make("7.0", 1024, 65, 0);
  std::ostringstream out;
  WriteOccupancyCsv(e.arch, e.input, e.result, out);
  std::vector<std::string> lines = Lines(out.str());
  ASSERT_EQ(lines.size(), 2u);
  std::vector<std::string> header = CsvCells(lines[0]);
  std::vector<std::string> row = CsvCells(lines[1]);
  ASSERT_EQ(header.size(), row.size()) << lines[1];
  EXPECT_EQ(row.back(), e.result.cannot_launch_reason);
  EXPECT_NE(lines[1].find(",\"Registers: 65 registers per thread need 73728"), std::string::npos)
      << lines[1];
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "block_limit_registers") {
      EXPECT_EQ(row[i], "0");
    }
    if (header[i] == "block_limit_shared_memory") {
      EXPECT_EQ(row[i], "");  // unlimited
    }
  }
}

TEST(OccupancyGraphsCsv, EveryPoint) {
  Example e = Make("8.6", 128, 32, 0);
  std::ostringstream out;
  WriteOccupancyGraphsCsv(e.graphs, out);
  std::vector<std::string> lines = Lines(out.str());
  const std::size_t points = 32 + 255 + (99 * 1024 / 128 + 1);
  ASSERT_EQ(lines.size(), 1 + points);
  EXPECT_EQ(lines[0], "graph,x,blocks_per_sm,active_warps_per_sm,occupancy_percent,limiters");
  EXPECT_EQ(lines[1], "block_size,32,16,16,33.3333,blocks");
  EXPECT_EQ(lines[4], "block_size,128,12,48,100.0000,warps");
  EXPECT_EQ(lines[33], "registers,1,12,48,100.0000,warps");
  EXPECT_EQ(lines.back(), "shared_memory,101376,1,4,8.3333,shared memory");
}

TEST(OccupancySvg, IsWellFormedXmlWithThreeCharts) {
  for (const ArchitectureLimits& arch : SupportedArchitectures()) {
    Example e = Make(arch.Name(), 256, 40, 1984);
    const std::string svg = OccupancySvg(e.arch, e.input, e.result, e.graphs);
    std::string error;
    std::optional<testing::XmlSummary> xml = testing::CheckXml(svg, &error);
    ASSERT_TRUE(xml.has_value()) << error << "\n" << svg.substr(0, 2000);
    EXPECT_EQ(xml->root, "svg");
    EXPECT_EQ(xml->element_counts["polyline"], 3);
    EXPECT_EQ(xml->element_counts["circle"], 3);  // the launch, on each chart
    EXPECT_NE(xml->text.find("Varying Block Size"), std::string::npos);
    EXPECT_NE(xml->text.find("Varying Register Count"), std::string::npos);
    EXPECT_NE(xml->text.find("Varying Shared Memory Usage"), std::string::npos);
    EXPECT_NE(xml->text.find("compute capability " + arch.Name()), std::string::npos);
  }
}

TEST(OccupancySvg, MarksTheLaunchWithItsWarps) {
  Example e = Make("9.0", 256, 40, 1984);
  const std::string svg = OccupancySvg(e.arch, e.input, e.result, e.graphs);
  EXPECT_NE(svg.find("<title>launch: 256 threads per block, 48 warps</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>launch: 40 registers per thread, 48 warps</title>"),
            std::string::npos);
  EXPECT_NE(svg.find("limited by registers"), std::string::npos);
}

TEST(XmlEscaped, EscapesMarkupAndControlCharacters) {
  EXPECT_EQ(XmlEscaped("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(XmlEscaped("tab\tok\x01"), "tab\tok\xEF\xBF\xBD");
  std::string error;
  EXPECT_TRUE(testing::CheckXml(
      "<t a=\"" + XmlEscaped("<\"&'>") + "\">" + XmlEscaped("]]> & <x>") + "</t>", &error))
      << error;
}

TEST(XmlChecker, RejectsMalformedDocuments) {
  for (std::string_view bad :
       {"<a>", "<a></b>", "<a x=1/>", "<a x=\"1\" x=\"2\"/>", "<a>&nbsp;</a>", "<a>x & y</a>",
        "<a/><b/>", "<a x=\"<\"/>", "text"}) {
    std::string error;
    EXPECT_FALSE(testing::CheckXml(bad, &error).has_value()) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
  std::string error;
  EXPECT_TRUE(
      testing::CheckXml("<?xml version=\"1.0\"?>\n<!-- c --><a b='1'><c/>t&amp;</a>\n", &error))
      << error;
}

}  // namespace
}  // namespace gpuscope::analysis

#include "render/occupancy_format.h"

#include <cstdio>
#include <string>

#include "render/escaping.h"

namespace gpuscope::render {

using analysis::ArchitectureLimits;
using analysis::kOccupancyResources;
using analysis::kUnlimitedBlocks;
using analysis::OccupancyGraph;
using analysis::OccupancyGraphPoint;
using analysis::OccupancyInput;
using analysis::OccupancyResource;
using analysis::OccupancyResult;
using analysis::ResourceName;

namespace {

constexpr int kLabelWidth = 40;

std::string Fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string LimitText(int blocks) {
  return blocks == kUnlimitedBlocks ? "unlimited" : std::to_string(blocks);
}

std::string LimitCsv(int blocks) {
  return blocks == kUnlimitedBlocks ? std::string() : std::to_string(blocks);
}

// Nsight Compute's metric names, so that users can compare the two outputs line by line.
std::string_view NcuLimitName(OccupancyResource resource) {
  switch (resource) {
    case OccupancyResource::kWarps:
      return "Block Limit Warps";
    case OccupancyResource::kRegisters:
      return "Block Limit Registers";
    case OccupancyResource::kSharedMemory:
      return "Block Limit Shared Mem";
    case OccupancyResource::kBlocks:
      return "Block Limit SM";
    case OccupancyResource::kBarriers:
      return "Block Limit Barriers";
  }
  return "?";
}

void Line(std::ostream& out, std::string_view label, const std::string& value) {
  std::string padded(label);
  if (padded.size() < kLabelWidth) padded.resize(kLabelWidth, ' ');
  out << "  " << padded << ' ' << value << '\n';
}

std::string CarveoutText(const OccupancyInput& input) {
  if (input.shared_memory_config) {
    return "as run: " + std::to_string(*input.shared_memory_config) + " bytes";
  }
  return input.carveout_percent ? "preference " + std::to_string(*input.carveout_percent) + " %"
                                : "no preference (largest carveout)";
}

std::int64_t EffectiveMaxDynamic(const ArchitectureLimits& arch, const OccupancyInput& input) {
  return input.max_dynamic_shared_memory.value_or(arch.max_shared_memory_per_block -
                                                  input.static_shared_memory);
}

// Graph rows: runs of neighbouring points with the same result.
struct GraphRow {
  std::size_t first = 0, last = 0;  // point indexes
};

std::vector<GraphRow> MergeEqualPoints(const OccupancyGraph& graph) {
  std::vector<GraphRow> rows;
  for (std::size_t i = 0; i < graph.points.size(); ++i) {
    const OccupancyGraphPoint& point = graph.points[i];
    if (!rows.empty()) {
      const OccupancyGraphPoint& previous = graph.points[rows.back().last];
      if (previous.blocks_per_sm == point.blocks_per_sm &&
          previous.active_warps_per_sm == point.active_warps_per_sm &&
          previous.limiters == point.limiters) {
        rows.back().last = i;
        continue;
      }
    }
    rows.push_back({i, i});
  }
  return rows;
}

}  // namespace

std::string JoinResourceNames(const std::vector<OccupancyResource>& resources,
                              std::string_view separator) {
  if (resources.empty()) return "-";
  std::string text;
  for (OccupancyResource resource : resources) {
    if (!text.empty()) text += separator;
    text += ResourceName(resource);
  }
  return text;
}

void WriteOccupancyText(const ArchitectureLimits& arch, const OccupancyInput& input,
                        const OccupancyResult& result, std::ostream& out) {
  out << "Theoretical occupancy on compute capability " << arch.Name() << " (" << arch.family
      << ")\n\n";
  out << "Launch configuration\n";
  Line(out, "Threads per block",
       std::to_string(input.threads_per_block) + " (" + std::to_string(result.warps_per_block) +
           (result.warps_per_block == 1 ? " warp)" : " warps)"));
  Line(out, "Registers per thread", std::to_string(input.registers_per_thread));
  Line(out, "Static shared memory per block",
       std::to_string(input.static_shared_memory) + " bytes");
  Line(out, "Dynamic shared memory per block",
       std::to_string(input.dynamic_shared_memory) + " bytes (kernel maximum " +
           std::to_string(EffectiveMaxDynamic(arch, input)) + ")");
  Line(out, "Shared memory carveout", CarveoutText(input));
  Line(out, "Barriers per block", std::to_string(input.barriers_per_block));

  out << "\nBlock limits (blocks per SM)\n";
  for (OccupancyResource resource : kOccupancyResources) {
    std::string value = LimitText(result.BlockLimit(resource));
    if (result.IsLimiter(resource)) value += "  <- limiter";
    Line(out, NcuLimitName(resource), value);
  }

  out << "\nAllocation per block\n";
  Line(out, "Registers",
       std::to_string(result.allocated_registers_per_block) + " (" +
           std::to_string(result.allocated_registers_per_warp) + " per warp)");
  Line(out, "Shared memory",
       std::to_string(result.allocated_shared_memory_per_block) + " bytes (" +
           std::to_string(arch.reserved_shared_memory_per_block) + " reserved by the driver)");
  if (result.shared_memory_carveout > 0 || result.blocks_per_sm > 0) {
    Line(out, "Shared memory per SM (carveout)",
         std::to_string(result.shared_memory_carveout) + " bytes (" +
             std::to_string(result.shared_memory_carveout / 1024) + " KB)");
  }

  out << "\nResult\n";
  Line(out, "Theoretical Active Blocks per SM", std::to_string(result.blocks_per_sm));
  Line(out, "Theoretical Active Warps per SM",
       std::to_string(result.active_warps_per_sm) + " of " +
           std::to_string(result.max_warps_per_sm));
  Line(out, "Theoretical Occupancy", Fixed(result.occupancy_percent, 2) + " %");
  Line(out, "Limited by", JoinResourceNames(result.Limiters(), ", "));
  if (result.blocks_per_sm == 0) {
    out << "\nThis configuration cannot launch: no block fits on an SM. "
        << result.cannot_launch_reason << '\n';
  }
}

void WriteOccupancyGraphsText(const std::vector<OccupancyGraph>& graphs, std::ostream& out) {
  for (const OccupancyGraph& graph : graphs) {
    out << '\n' << graph.title << " (" << graph.x_label << ")\n";
    char header[160];
    std::snprintf(header, sizeof header, "  %-3s%-20s %10s %13s %10s  %s\n", "", "range",
                  "blocks/SM", "active warps", "occupancy", "limited by");
    out << header;
    std::int64_t previous_last = -1;
    for (const GraphRow& row : MergeEqualPoints(graph)) {
      const OccupancyGraphPoint& first = graph.points[row.first];
      const OccupancyGraphPoint& last = graph.points[row.last];
      const bool holds_launch = graph.current_x > previous_last && graph.current_x <= last.x;
      previous_last = last.x;
      std::string range = std::to_string(first.x);
      if (row.last != row.first) range.append("-").append(std::to_string(last.x));
      char line[256];
      std::snprintf(line, sizeof line, "  %-3s%-20s %10d %13d %9s%%  %s\n", holds_launch ? "*" : "",
                    range.c_str(), first.blocks_per_sm, first.active_warps_per_sm,
                    Fixed(first.occupancy_percent, 2).c_str(),
                    JoinResourceNames(first.limiters, ", ").c_str());
      out << line;
    }
  }
  out << "\n* the launch as given\n";
}

void WriteOccupancyCsv(const ArchitectureLimits& arch, const OccupancyInput& input,
                       const OccupancyResult& result, std::ostream& out) {
  out << "compute_capability,threads_per_block,registers_per_thread,static_shared_memory,"
         "dynamic_shared_memory,max_dynamic_shared_memory,carveout_percent,barriers_per_block,"
         "warps_per_block,blocks_per_sm,active_warps_per_sm,max_warps_per_sm,occupancy_percent,"
         "block_limit_warps,block_limit_registers,block_limit_shared_memory,block_limit_blocks,"
         "block_limit_barriers,limiters,allocated_registers_per_block,"
         "allocated_shared_memory_per_block,shared_memory_carveout,cannot_launch_reason\n";
  out << arch.Name() << ',' << input.threads_per_block << ',' << input.registers_per_thread << ','
      << input.static_shared_memory << ',' << input.dynamic_shared_memory << ','
      << EffectiveMaxDynamic(arch, input) << ','
      << (input.carveout_percent ? std::to_string(*input.carveout_percent) : std::string()) << ','
      << input.barriers_per_block << ',' << result.warps_per_block << ',' << result.blocks_per_sm
      << ',' << result.active_warps_per_sm << ',' << result.max_warps_per_sm << ','
      << Fixed(result.occupancy_percent, 4);
  for (OccupancyResource resource : kOccupancyResources) {
    out << ',' << LimitCsv(result.BlockLimit(resource));
  }
  out << ',' << CsvField(JoinResourceNames(result.Limiters(), ";")) << ','
      << result.allocated_registers_per_block << ',' << result.allocated_shared_memory_per_block
      << ',' << result.shared_memory_carveout << ',' << CsvField(result.cannot_launch_reason)
      << '\n';
}

void WriteOccupancyGraphsCsv(const std::vector<OccupancyGraph>& graphs, std::ostream& out) {
  out << "graph,x,blocks_per_sm,active_warps_per_sm,occupancy_percent,limiters\n";
  for (const OccupancyGraph& graph : graphs) {
    for (const OccupancyGraphPoint& point : graph.points) {
      out << graph.id << ',' << point.x << ',' << point.blocks_per_sm << ','
          << point.active_warps_per_sm << ',' << Fixed(point.occupancy_percent, 4) << ','
          << CsvField(JoinResourceNames(point.limiters, ";")) << '\n';
    }
  }
}

}  // namespace gpuscope::render

// The three occupancy graphs of NVIDIA's occupancy calculator and Nsight Compute: how
// theoretical occupancy changes when one input varies and the others stay as launched.
//   block size        warp size .. max threads per block, in steps of the warp size;
//   registers         1 .. 255 registers per thread;
//   shared memory     0 .. the opt-in maximum per block, in steps of the allocation unit.
// The shared-memory graph varies the block's total shared memory (static + dynamic) and
// assumes the kernel opts in to whatever it uses (cudaFuncAttributeMaxDynamicSharedMemorySize):
// it answers "what if the kernel used this much", not "what does this binary allow". It
// also ignores a given shared-memory configuration (OccupancyInput::shared_memory_config):
// the driver picks the carveout per size.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/occupancy.h"
#include "util/status.h"

namespace gpuscope::analysis {

enum class OccupancyGraphKind { kBlockSize, kRegisters, kSharedMemory };

struct OccupancyGraphPoint {
  std::int64_t x = 0;  // threads per block, registers per thread, or shared memory bytes
  int blocks_per_sm = 0;
  int active_warps_per_sm = 0;
  double occupancy_percent = 0;
  std::vector<OccupancyResource> limiters;
};

struct OccupancyGraph {
  OccupancyGraphKind kind = OccupancyGraphKind::kBlockSize;
  std::string_view title;                   // "Varying Block Size"
  std::string_view x_label;                 // "threads per block"
  std::string_view id;                      // "block_size", for CSV and SVG ids
  std::int64_t current_x = 0;               // where the launch as given sits on this graph
  std::vector<OccupancyGraphPoint> points;  // ascending x
};

// The block-size, registers and shared-memory graphs, in that order. Errors only for inputs
// that ValidateOccupancyInput rejects.
StatusOr<std::vector<OccupancyGraph>> ComputeOccupancyGraphs(const ArchitectureLimits& arch,
                                                             const OccupancyInput& input);

}  // namespace gpuscope::analysis

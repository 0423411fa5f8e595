#include "analysis/occupancy_graphs.h"

#include <algorithm>

namespace gpuscope::analysis {
namespace {

constexpr int kFirstRegisterPoint = 1;
constexpr int kLastRegisterPoint = 255;

StatusOr<OccupancyGraphPoint> PointAt(const ArchitectureLimits& arch, const OccupancyInput& input,
                                      std::int64_t x) {
  StatusOr<OccupancyResult> result = ComputeOccupancy(arch, input);
  if (!result.ok()) return result.status();
  OccupancyGraphPoint point;
  point.x = x;
  point.blocks_per_sm = result->blocks_per_sm;
  point.active_warps_per_sm = result->active_warps_per_sm;
  point.occupancy_percent = result->occupancy_percent;
  point.limiters = result->Limiters();
  return point;
}

StatusOr<OccupancyGraph> BlockSizeGraph(const ArchitectureLimits& arch,
                                        const OccupancyInput& input) {
  OccupancyGraph graph{OccupancyGraphKind::kBlockSize,
                       "Varying Block Size",
                       "threads per block",
                       "block_size",
                       input.threads_per_block,
                       {}};
  for (int threads = arch.warp_size; threads <= arch.max_threads_per_block;
       threads += arch.warp_size) {
    OccupancyInput varied = input;
    varied.threads_per_block = threads;
    StatusOr<OccupancyGraphPoint> point = PointAt(arch, varied, threads);
    if (!point.ok()) return point.status();
    graph.points.push_back(std::move(point.value()));
  }
  return graph;
}

StatusOr<OccupancyGraph> RegistersGraph(const ArchitectureLimits& arch,
                                        const OccupancyInput& input) {
  OccupancyGraph graph{OccupancyGraphKind::kRegisters, "Varying Register Count",
                       "registers per thread",         "registers",
                       input.registers_per_thread,     {}};
  const int last = std::min(kLastRegisterPoint, arch.max_registers_per_thread);
  for (int registers = kFirstRegisterPoint; registers <= last; ++registers) {
    OccupancyInput varied = input;
    varied.registers_per_thread = registers;
    StatusOr<OccupancyGraphPoint> point = PointAt(arch, varied, registers);
    if (!point.ok()) return point.status();
    graph.points.push_back(std::move(point.value()));
  }
  return graph;
}

StatusOr<OccupancyGraph> SharedMemoryGraph(const ArchitectureLimits& arch,
                                           const OccupancyInput& input) {
  OccupancyGraph graph{OccupancyGraphKind::kSharedMemory,
                       "Varying Shared Memory Usage",
                       "shared memory per block (bytes)",
                       "shared_memory",
                       input.static_shared_memory + input.dynamic_shared_memory,
                       {}};
  for (std::int64_t bytes = 0; bytes <= arch.max_shared_memory_per_block_optin;
       bytes += arch.shared_memory_allocation_unit) {
    // All of it as dynamic memory the kernel opted in to: the split does not change the
    // allocation, and the opt-in keeps sizes over 48 KB from reading as "cannot launch".
    OccupancyInput varied = input;
    varied.static_shared_memory = 0;
    varied.dynamic_shared_memory = bytes;
    varied.max_dynamic_shared_memory = arch.max_shared_memory_per_block_optin;
    // A carveout the driver chose for the launch's own size says nothing about other sizes.
    varied.shared_memory_config.reset();
    StatusOr<OccupancyGraphPoint> point = PointAt(arch, varied, bytes);
    if (!point.ok()) return point.status();
    graph.points.push_back(std::move(point.value()));
  }
  return graph;
}

}  // namespace

StatusOr<std::vector<OccupancyGraph>> ComputeOccupancyGraphs(const ArchitectureLimits& arch,
                                                             const OccupancyInput& input) {
  GPUSCOPE_RETURN_IF_ERROR(ValidateOccupancyInput(arch, input));
  std::vector<OccupancyGraph> graphs;
  for (auto build : {BlockSizeGraph, RegistersGraph, SharedMemoryGraph}) {
    StatusOr<OccupancyGraph> graph = build(arch, input);
    if (!graph.ok()) return graph.status();
    graphs.push_back(std::move(graph.value()));
  }
  return graphs;
}

}  // namespace gpuscope::analysis

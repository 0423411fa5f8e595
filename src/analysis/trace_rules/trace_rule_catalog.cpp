#include "analysis/trace_rules/trace_rule_catalog.h"

namespace gpuscope::analysis::trace_rules {

std::span<const TraceRuleDescription> TraceRuleCatalog() {
  static constexpr TraceRuleDescription kRules[] = {
      {"pageable_copies",
       "copies to or from pageable host memory: the driver stages them through a pinned "
       "buffer, so they are slower and never overlap kernels or other copies",
       "pin the host buffer (cudaMallocHost, cudaHostRegister)"},
      {"synchronous_transfers",
       "copies and memsets issued with a synchronous call (cudaMemcpy, cudaMemset), which hold "
       "the host thread until the GPU is done",
       "use the Async calls on a stream and synchronise once"},
      {"idle_gaps",
       "stretches in which a GPU ran nothing between two of its activities while the host "
       "prepared or waited",
       "queue work ahead (streams, CUDA graphs) so that the GPU never waits for the host"},
      {"launch_bound_kernels",
       "long runs of tiny kernels where the GPU spends more time between kernels (launch "
       "cost) than in them",
       "fuse the kernels or launch them as a CUDA graph"},
      {"serialized_transfers",
       "a GPU that copied between host and device and ran kernels but never did both at once",
       "issue copies and kernels on several streams so that copy engines and SMs overlap"},
      {"allocation_in_loop",
       "device memory allocated and freed over and over with the same size (cudaMalloc and "
       "cudaFree in a loop; cudaFree synchronises the device)",
       "allocate once, or use a pool (cudaMallocAsync)"},
      {"gpu_metric_stretches",
       "with `run --gpu-metrics`: stretches where kernels ran but the SMs were mostly idle "
       "(grids too small for the GPU, tails of uneven blocks), and stretches where DRAM "
       "bandwidth was saturated",
       "launch more blocks (at least a few per SM), balance the work of the blocks or run "
       "kernels concurrently; for saturated DRAM, reuse data on chip (tiling, fusion)"},
  };
  return kRules;
}

}  // namespace gpuscope::analysis::trace_rules

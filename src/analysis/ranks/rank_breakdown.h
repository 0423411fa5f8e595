// One rank's time on the aligned axis, HTA's temporal breakdown, from its report alone
// (wait on ranks needs the others: comm_analysis.h fills it in). All in ns:
//   span           last end - first start of GPU activity (kernels, copies, memsets)
//   compute        |union of the kernels that are not NCCL's|
//   communication  |union of NCCL's kernels|
//   overlap        |union(communication) ∩ union(compute)|, as comm + compute - |union of
//                  all kernels| (exact, and needs only three running unions)
//   exposed        communication - overlap: communication nothing else hid
//   busy           |union of all GPU activity|;  idle = span - busy
//   idle (host)    the idle gaps whose closing activity's launch call (its API call by
//                  correlation id, not a driver call nested in a runtime one) began after the
//                  gap began: the GPU waited for the host to issue the work
//   idle (other)   every other gap (the work was issued before; the GPU waited on something
//                  else: a dependency, an event, another rank); host + other = idle
// Streamed: the report's GPU activities and its API calls are read in start order, side by
// side, keeping three running unions and the API calls made inside the current gap.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/ranks/collectives.h"
#include "util/status.h"

namespace gpuscope::analysis::ranks {

struct RankBreakdown {
  std::uint64_t span_ns = 0;
  std::uint64_t compute_ns = 0;
  std::uint64_t communication_ns = 0;
  std::uint64_t overlap_ns = 0;
  std::uint64_t exposed_ns = 0;
  std::uint64_t busy_ns = 0;
  std::uint64_t idle_ns = 0;
  std::uint64_t idle_host_ns = 0;
  std::uint64_t idle_other_ns = 0;
  std::uint64_t wait_on_ranks_ns = 0;  // Σ over matched collectives (latest start - own start)
};

// Durations of a group of operations (NCCL kernels of one collective, NCCL API calls of one
// name), with the bytes they moved where known.
struct OperationTotals {
  std::uint64_t count = 0;
  std::uint64_t total_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  std::uint64_t bytes = 0;          // Σ of the known sizes
  std::uint64_t without_bytes = 0;  // operations whose size is unknown

  void Add(std::uint64_t duration_ns, std::optional<std::uint64_t> size);
  void Merge(const OperationTotals& other);
};

using OperationsByName = std::map<std::string, OperationTotals, std::less<>>;

// What one report contributes to the communication analysis.
struct RankCommunication {
  RankBreakdown breakdown;
  // NCCL's kernels in start order, on the aligned axis (the report's times + offset).
  std::vector<CollectiveEvent> collectives;
  OperationsByName nccl_kernels;    // by CollectiveKind
  OperationsByName nccl_api_calls;  // by API name (nccl_api_calls.h)
  // What the report says it lost, and the rows left out as damaged, "<path>: <warning>".
  std::vector<std::string> warnings;
};

// Streams the report at `path` once (its GPU activities with its API calls, then its NVTX
// ranges), memory bounded by one gap's API calls and the list of its NCCL kernels.
StatusOr<RankCommunication> ReadRankCommunication(const std::string& path, std::int64_t offset_ns);

}  // namespace gpuscope::analysis::ranks

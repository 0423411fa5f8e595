// NCCL's collectives as the multi-rank analyses see them: which kernels are NCCL's, which
// collective each runs, and which kernels of different ranks are the same collective.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::analysis::ranks {

// True for the kernels NCCL launches, mangled or demangled: ncclDevKernel_* (NCCL 2.19+),
// ncclKernel_* (2.5 to 2.18) and the older nccl<Collective>...Kernel* names.
bool IsNcclKernel(std::string_view mangled_or_demangled);

// The collective an NCCL kernel runs: "AllReduce", "AllGather", "ReduceScatter",
// "Broadcast", "Reduce", "SendRecv", "Send", "Recv", or "Other" (also for any other name).
std::string CollectiveKind(std::string_view mangled_or_demangled);

// One NCCL kernel of one rank, as the matching needs it (times in ns, on any axis).
struct CollectiveEvent {
  std::string kind;  // CollectiveKind of the kernel
  std::int64_t start = 0;
  std::int64_t end = 0;
};

// One collective matched across ranks: the `ordinal`-th (from 0) kernel of `kind` on every
// rank. event[r] indexes the list of rank r given to MatchCollectives.
struct MatchedCollective {
  std::string kind;
  std::size_t ordinal = 0;
  std::vector<std::size_t> event;
};

// Matches collectives across ranks. Every rank launches the collectives of a communicator
// in the same order, so the k-th kernel of a kind on one rank is the k-th on every other:
// per rank the events are taken in start order (ties keep the list's order), numbered per
// kind, and the k-th of each kind is matched wherever every rank has one (the common prefix;
// a rank that recorded fewer ends the matching of that kind). Kinds that some rank never ran
// (point-to-point between some ranks) are not matched. The result is in the order of the
// first rank's starts. One rank matches all of its events with themselves; no ranks, none.
std::vector<MatchedCollective> MatchCollectives(
    const std::vector<std::vector<CollectiveEvent>>& per_rank);

}  // namespace gpuscope::analysis::ranks

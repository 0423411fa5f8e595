// Which kernels are NCCL's: the device side of its collectives and point-to-point calls,
// named `ncclDevKernel_<Coll>_...` (NCCL 2.19 and later), `ncclKernel_<Coll>_...` (2.5 to
// 2.18) or `nccl<Coll>...Kernel...` (older),
// whether the name is mangled (`_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL...`), demangled
// (`ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)`, or with a
// leading `void `) or bare. Shared by the injection (a collective must not be replayed alone:
// cupti/profiler/launch_selection.h) and the readers.
#pragma once

#include <string_view>

namespace gpuscope {

// The kernel's identifier with a mangled prefix (`_Z`, a length) or a demangled `void `
// removed, and a demangled name's parameters and template arguments:
// "ncclDevKernel_AllReduce_Sum_f32_RING_LL" for every spelling above. Empty for a mangled name
// that cannot be read (a length past its end).
std::string_view KernelIdentifier(std::string_view name);

bool IsNcclKernel(std::string_view mangled_or_demangled);

}  // namespace gpuscope

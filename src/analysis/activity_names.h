// The names nvprof and nsys give to GPU activities that are not kernels. Users grep for
// these exact strings ("[CUDA memcpy HtoD]"), so they are spelled the way the tools do.
#pragma once

#include <string_view>

#include "model/records.h"

namespace gpuscope::analysis {

// nvprof: "[CUDA memcpy HtoD]", "[CUDA memcpy PtoP]", "[CUDA memcpy HtoA]", ...
std::string_view NvprofCopyName(model::CopyKind kind);
// nsys: "[CUDA memcpy Host-to-Device]", "[CUDA memcpy Peer-to-Peer]", ...
std::string_view NsysCopyName(model::CopyKind kind);

// Both tools call every memset the same.
inline constexpr std::string_view kMemsetName = "[CUDA memset]";

// nvprof's SrcMemType / DstMemType values: "Pageable", "Pinned", "Device", ...
std::string_view MemoryKindName(model::MemoryKind kind);

}  // namespace gpuscope::analysis

// The names nvprof and nsys give to GPU activities that are not kernels. Users grep for
// these exact strings ("[CUDA memcpy HtoD]"), so they are spelled the way the tools do.
#pragma once

#include <string>
#include <string_view>

#include "model/records.h"

namespace gpuscope::analysis {

// nvprof: "[CUDA memcpy HtoD]", "[CUDA memcpy PtoP]", "[CUDA memcpy HtoA]", ...
std::string_view NvprofCopyName(model::CopyKind kind);
// nsys: "[CUDA memcpy Host-to-Device]", "[CUDA memcpy Peer-to-Peer]", ...
std::string_view NsysCopyName(model::CopyKind kind);

// Both tools call every memset the same.
inline constexpr std::string_view kMemsetName = "[CUDA memset]";

// The Range column of nsys's NVTX tables (nvtx_sum, nvtx_kern_sum, nvtx_gpu_proj_sum):
// "domain:name", with the default domain empty (":step 3"), as nsys prints it now (older
// versions printed a bare name for the default domain); scripts that read nsys's CSV strip
// the colon, so the same scripts read ours. Assigned to `label` (reused by callers that make
// one per row) and returned.
std::string& NsysRangeLabel(std::string_view domain, std::string_view name, std::string& label);

// nvprof's SrcMemType / DstMemType values: "Pageable", "Pinned", "Device", ...
std::string_view MemoryKindName(model::MemoryKind kind);

}  // namespace gpuscope::analysis

// Which source line each SASS instruction of a cubin came from, from the cubin's own line
// table (built with `nvcc -lineinfo` or -G; Numba lineinfo=True; Triton by default), read by
// CUPTI's cuptiGetSassToSourceCorrelation. Needs no GPU and no driver: only libcupti.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "util/status.h"

namespace gpuscope::cupti::host {

struct SourceLocation {
  std::string file;  // the line table's directory and file name joined
  std::uint32_t line = 0;
};

// The line of the instruction `pc_offset` bytes into `function` (mangled); nullopt: the cubin
// has no line information for it (or CUPTI does not know the function).
std::optional<SourceLocation> SourceLineOf(std::span<const std::uint8_t> cubin,
                                           const std::string& function, std::uint64_t pc_offset);

// CUPTI's CRC of the cubin, the key its PC sampling and SASS patching records carry.
StatusOr<std::uint64_t> CubinCrc(std::span<const std::uint8_t> cubin);

}  // namespace gpuscope::cupti::host

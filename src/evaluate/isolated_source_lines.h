// The source line of each instruction of one cubin function (cupti/host/source_lines), read in
// a child process: the cubin comes from a report that may be damaged or crafted, and CUPTI's
// ELF and DWARF reading is not known to check it, so a crash costs that cubin's lines only
// (as isolated_evaluation does for counter data).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cupti/host/source_lines.h"
#include "util/status.h"

namespace gpuscope::evaluate {

struct FunctionPcs {
  std::string function;  // mangled
  std::vector<std::uint64_t> pcs;
};

// Per function of `functions`, per pc, its line (nullopt: none); an error when the child
// crashed or did not finish within `limit`.
StatusOr<std::vector<std::vector<std::optional<cupti::host::SourceLocation>>>> SourceLinesIsolated(
    std::span<const std::uint8_t> cubin, const std::vector<FunctionPcs>& functions,
    std::chrono::milliseconds limit = std::chrono::seconds(60));

}  // namespace gpuscope::evaluate

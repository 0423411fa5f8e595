// Runs `nvdisasm -c <cubin>` on a cubin held in memory: the image goes to a private temporary
// file (removed afterwards), the program is started with fork/exec and its arguments (never a
// shell), and its listing is read with a time limit and a size bound, since the cubin comes
// from a report file that may be damaged or crafted.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "util/status.h"

namespace gpuscope::disassembly {

struct NvdisasmLimits {
  std::chrono::milliseconds time = std::chrono::seconds(60);
  std::size_t output_bytes = 256u << 20;  // a listing is ~50 bytes per instruction
};

// The listing (stdout); an error names what went wrong in one line: the program could not be
// run, exited non-zero (with the first line it wrote on stderr), took too long, wrote too much.
StatusOr<std::string> RunNvdisasm(const std::string& nvdisasm, std::span<const std::uint8_t> cubin,
                                  const NvdisasmLimits& limits = {});

}  // namespace gpuscope::disassembly

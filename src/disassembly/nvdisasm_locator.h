// Where NVIDIA's disassembler is: $GPUSCOPE_NVDISASM, else `nvdisasm` on PATH, else in
// $CUDA_HOME/bin, else /usr/local/cuda/bin. Machines without the CUDA toolkit have none; the
// evaluation then stores offsets and lines without SASS text.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace gpuscope::disassembly {

// Set by the user (the CLI side only): the nvdisasm to run, e.g. one of another toolkit.
inline constexpr const char* kNvdisasmVariable = "GPUSCOPE_NVDISASM";

using EnvironmentLookup = std::function<const char*(const char*)>;

// The first executable file of the search above; nullopt: none. A GPUSCOPE_NVDISASM that
// is set is taken as given (running it says what is wrong with it).
std::optional<std::string> FindNvdisasm(const EnvironmentLookup& getenv);

}  // namespace gpuscope::disassembly

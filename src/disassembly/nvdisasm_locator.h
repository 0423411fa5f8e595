// Where NVIDIA's disassembler is: the user's choice, else `nvdisasm` on PATH, else in
// $CUDA_HOME/bin, else /usr/local/cuda/bin. Machines without the CUDA toolkit have none; the
// evaluation then stores offsets and lines without SASS text. The caller reads the search's
// places from its environment (the CLI: GPUSCOPE_NVDISASM, PATH, CUDA_HOME) and passes them.
#pragma once

#include <optional>
#include <string>

namespace gpuscope::disassembly {

struct NvdisasmSearch {
  std::string chosen;     // the nvdisasm to run, e.g. one of another toolkit; empty: search
  std::string path;       // PATH's value: directories separated by ':'
  std::string cuda_home;  // CUDA_HOME's value; empty: not searched
};

// The first executable file of the search above; nullopt: none. A chosen nvdisasm is taken as
// given (running it says what is wrong with it).
std::optional<std::string> FindNvdisasm(const NvdisasmSearch& search);

}  // namespace gpuscope::disassembly

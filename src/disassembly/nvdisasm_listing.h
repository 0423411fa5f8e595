// NVIDIA's `nvdisasm -c` listing of a cubin, parsed: per function (its `.text.<mangled>:`
// section), each instruction's offset and SASS text. Only the text nvdisasm prints is read;
// directives, labels and the `//## File ..., line N` comments of `-g` are skipped (lines come
// from CUPTI's line table, cupti/host/source_lines, not from the listing).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::disassembly {

struct SassInstruction {
  std::uint64_t offset = 0;  // bytes from the function's first instruction
  std::string text;          // "DADD R2, R6, R2", "@!P0 BRA `(.L_x_2)" (no trailing " ;")
};

// Mangled function name -> its instructions in listing order. A line that looks like neither
// is ignored, so a listing of a newer nvdisasm degrades to fewer rows, never to an error.
using SassListing = std::map<std::string, std::vector<SassInstruction>>;

SassListing ParseNvdisasmListing(std::string_view listing);

}  // namespace gpuscope::disassembly

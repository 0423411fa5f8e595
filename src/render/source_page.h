// Nsight Compute's source page (`ncu --page source --print-source sass|cuda|cuda,sass`) of
// profiled kernels, as text or CSV, from analysis/source's values.
//
// CSV: one flat table for all kernels, header first, every field quoted:
//   "ID","Kernel Name","Function","Address","Source","File","Line", then the metric columns of
//   analysis::source::SourceColumns() in their order, plain integers, empty = no value.
// Address is the hex offset in the function ("0x0130"), empty on a source-line row; Source is
// the SASS text on an instruction row and the line's text on a line row. As in every CSV of
// gpuscope (render/escaping.h, CsvSafeText), a text cell starting with = + - @ gets a leading
// ' so that spreadsheets keep it text: a predicated instruction reads "'@P0 BRA `(.L_x_2)".
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/source/source_view.h"

namespace gpuscope::render {

enum class SourcePrint { kSass, kCuda, kCudaSass };

struct SourcePageKernel {
  std::uint32_t profile_index = 0;                         // ncu's ID
  std::string name;                                        // demangled
  const analysis::source::KernelSource* source = nullptr;  // nullptr: no source data
  std::string no_data_reason;  // why `source` is absent or empty (one line)
};

struct SourcePageOptions {
  SourcePrint print = SourcePrint::kSass;
  std::optional<std::size_t> sort_column;  // hottest first by it; nullopt: by address / line
};

void WriteSourcePageCsvHeader(std::ostream& out);
void WriteSourcePageCsv(const SourcePageKernel& kernel, const SourcePageOptions& options,
                        std::ostream& out);
void WriteSourcePageText(const SourcePageKernel& kernel, const SourcePageOptions& options,
                         std::ostream& out);

// Said once (on stderr, by the command) when a shown kernel's SASS has offsets but no lines.
inline constexpr const char* kNoLineInfoNote =
    "no source lines (the profiled code has no line information, or its cubin could not be "
    "read): build with nvcc -lineinfo; Numba: lineinfo=True; CuPy: options=('-lineinfo',); "
    "Triton keeps line info by default";

}  // namespace gpuscope::render

// The source page of profiled kernels (Nsight Compute's `--page source`) as values: per SASS
// instruction its measured values pivoted into the page's columns (source_columns.h), its SASS
// text and source line; per source line the sums of its instructions. Read from a report's
// source-counter tables (store/source_tables) after the evaluation added SASS and lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/source/source_columns.h"
#include "analysis/value_range.h"
#include "store/evaluation_writer.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis::source {

struct InstructionRow {
  std::uint64_t cubin_crc = 0;
  std::string function;  // mangled
  std::uint64_t pc_offset = 0;
  std::optional<std::string> sass;  // nullopt: not disassembled (no nvdisasm)
  std::optional<std::string> file;
  std::optional<std::uint32_t> line;
  ColumnValues values;  // empty entries: not measured at this instruction
};

struct LineRow {
  std::optional<std::string> file;  // nullopt with `line`: instructions without a line
  std::optional<std::uint32_t> line;
  std::optional<std::string> text;        // the line's source text, when the file was stored
  ColumnValues values;                    // sums over `instructions`
  std::vector<std::size_t> instructions;  // indices into KernelSource::instructions, by pc
};

struct KernelSource {
  bool requested = false;  // the profile asked for source counters for this launch
  std::string message;     // why (some of) them were not collected; '' when all were
  std::vector<InstructionRow> instructions;  // by cubin, function, pc
  std::vector<LineRow> lines;                // by file, line; the line-less group last
  bool has_sass = false;                     // some instruction has SASS text
  bool has_lines = false;                    // some instruction has a source line
};

// profiled_kernels.id -> its source data; kernels without any are absent. A report without
// the source tables gives an empty map. `pending`: SASS and lines the evaluation read but has not
// stored yet, taken as if they were stored (the rules see the page a reader will see, and the
// findings go into the report in the evaluation's one transaction); without it, those of the
// report's unsaved evaluation (store::ReportReader::unsaved_evaluation), if any.
// A measured value that cannot be true (analysis/value_range.h: CheckStoredCount) is left
// out, and counted in `impossible` (may be null) for the command's one warning.
StatusOr<std::map<std::int64_t, KernelSource>> LoadKernelSources(
    const store::ReportReader& report, const store::SourceRows* pending = nullptr,
    ImpossibleValueCounts* impossible = nullptr);

// Rows reordered hottest first by `column` (values absent last; ties keep their order).
void SortInstructions(std::vector<InstructionRow>& rows, std::size_t column);
void SortLines(std::vector<LineRow>& rows, std::size_t column);

// The opcode of a SASS instruction: "DADD" of "DADD R2, R6, R2", "BRA" of "@!P0 BRA `(.L_x_2)".
std::string OpcodeOf(const std::string& sass);

// One hot line or instruction, for a finding to name it: "176,092,900 DADD at convolve.py:29".
struct HotSpot {
  std::optional<std::string> file;
  std::optional<std::uint32_t> line;
  std::optional<std::string> source_text;  // the line's text, when stored
  std::vector<std::string> opcodes;        // its instructions' opcodes, hottest first
  std::optional<std::uint64_t> pc_offset;  // instructions only
  std::string function;                    // mangled; instructions only
  std::uint64_t value = 0;
  // "convolve.py:29" (the file's last path component), "0x0130" without a line.
  std::string Location() const;
  // "176,092,900 DADD at convolve.py:29" (opcodes joined with '/', at most three).
  std::string Summary() const;
};

// The `n` lines (instructions) of `kernel` with the largest value in `column`, largest first;
// rows without a value there are left out.
std::vector<HotSpot> TopLines(const KernelSource& kernel, std::size_t column, std::size_t n);
std::vector<HotSpot> TopInstructions(const KernelSource& kernel, std::size_t column, std::size_t n);

// "0x0130": the offset in hex, at least four digits (nvdisasm's style).
std::string HexOffset(std::uint64_t offset);

}  // namespace gpuscope::analysis::source

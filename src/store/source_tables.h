// The source-counter tables of a report (schema.sql: instruction_values, kernel_source, cubins,
// sass_instructions, source_files), read back typed. A report written before these tables
// existed, or by `gpuscope run`, reads as "no source data": empty results, no error.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::store {

// Whether the report has the source-counter tables at all (instruction_values and cubins).
bool HasSourceTables(const ReportReader& report);
// Whether the evaluation already added sass_instructions and source_files.
bool HasSourceResultTables(const ReportReader& report);

struct StoredInstructionValue {
  std::int64_t profiled_kernel_id = 0;
  std::uint64_t cubin_crc = 0;
  std::int64_t function_id = 0;  // strings.id
  std::string function;          // mangled
  std::uint64_t pc_offset = 0;
  std::string metric;
  std::uint64_t value = 0;
};

// The values of one profiled kernel (nullopt: of every kernel), by kernel, cubin, function, pc.
StatusOr<std::vector<StoredInstructionValue>> ReadInstructionValues(
    const ReportReader& report, std::optional<std::int64_t> profiled_kernel_id = std::nullopt);

// An instruction some profiled kernel has values of, whose cubin sass_instructions does not
// have yet: what the evaluation still has to read from the cubins.
struct InstructionSite {
  std::uint64_t cubin_crc = 0;
  std::int64_t function_id = 0;
  std::string function;  // mangled; empty when the name is missing
  std::uint64_t pc_offset = 0;
};

// Whether some instruction value's cubin has no sass_instructions rows yet (one query: every
// reading command asks it before it reads a report).
StatusOr<bool> HasUndisassembledCubins(const ReportReader& report);

// The distinct sites of those values, by cubin, function, pc.
StatusOr<std::vector<InstructionSite>> ReadUndisassembledSites(const ReportReader& report);

struct StoredKernelSource {
  std::string message;  // '' when everything asked for was collected
  std::uint64_t total_samples = 0;
  std::uint64_t dropped_samples = 0;
  std::uint32_t sampling_period = 0;
};

// profiled_kernels.id -> how its source passes went (only kernels they were asked for).
StatusOr<std::map<std::int64_t, StoredKernelSource>> ReadKernelSources(const ReportReader& report);

// The CRCs of the stored cubins.
StatusOr<std::vector<std::uint64_t>> ReadCubinCrcs(const ReportReader& report);

// The decompressed cubin `crc`; an error when it is absent or damaged.
StatusOr<std::vector<std::uint8_t>> ReadCubin(const ReportReader& report, std::uint64_t crc);

struct StoredSassInstruction {
  std::uint64_t cubin_crc = 0;
  std::int64_t function_id = 0;
  std::string function;  // mangled
  std::uint64_t pc_offset = 0;
  std::optional<std::string> sass;  // nullopt: no disassembler was found
  std::optional<std::int64_t> file_id;
  std::optional<std::uint32_t> line;
};

// Every stored instruction, by cubin, function, pc; empty when not evaluated yet.
StatusOr<std::vector<StoredSassInstruction>> ReadSassInstructions(const ReportReader& report);

// The CRCs that sass_instructions already has rows of.
StatusOr<std::vector<std::uint64_t>> ReadDisassembledCubinCrcs(const ReportReader& report);

struct StoredSourceFile {
  std::string path;
  std::optional<std::string> content;  // nullopt: not readable when evaluated
};

// source_files.id -> the file.
StatusOr<std::map<std::int64_t, StoredSourceFile>> ReadSourceFiles(const ReportReader& report);

}  // namespace gpuscope::store

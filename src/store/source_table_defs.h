// The source counters' tables (`profile --section SourceCounters`): per-instruction values,
// how the source passes went, the cubins, their SASS and lines, the source files; each declared
// once (table_info.h), read back by source_tables.h.
#pragma once

#include "store/table_info.h"

namespace gpuscope::store {

// clang-format off
inline constexpr ColumnInfo kInstructionValuesColumns[] = {
    {"profiled_kernel_id", "INTEGER NOT NULL", "profiled_kernels.id"},
    {"cubin_crc", "INTEGER NOT NULL", "cubins.crc"},
    {"function_id", "INTEGER NOT NULL", "strings.id of the function (mangled) holding the pc"},
    {"pc_offset", "INTEGER NOT NULL", "bytes from that function's first instruction"},
    {"metric_id", "INTEGER NOT NULL", "strings.id of the counter: a SASS metric\n"
      "('smsp__sass_inst_executed', ...) or a PC-sampling\n"
      "stall reason ('smsp__pcsamp_warps_issue_stalled_...')"},
    {"value", "INTEGER NOT NULL", "executions, sectors, wavefronts or samples"},
};

inline constexpr TableInfo kInstructionValuesTable = {
    .name = "instruction_values",
    .doc = "Source counters (`profile --section SourceCounters`, in --set full): per SASS instruction of\n"
           "each profiled launch, measured by gpuscope's own replay of the launch before its counter\n"
           "passes (device memory saved and restored around each): SASS patching for exact counts, PC\n"
           "sampling for warp stall reasons. Values are CUPTI's, summed over the whole GPU.",
    .columns = kInstructionValuesColumns,
    .constraint = "PRIMARY KEY (profiled_kernel_id, cubin_crc, function_id, pc_offset, metric_id)",
    .without_rowid = true,
};

inline constexpr ColumnInfo kKernelSourceColumns[] = {
    {"profiled_kernel_id", "INTEGER PRIMARY KEY", "profiled_kernels.id"},
    {"message", "TEXT NOT NULL", "'' when all was collected; else why not (one line)"},
    {"total_samples", "INTEGER NOT NULL", "PC sampling: samples taken"},
    {"dropped_samples", "INTEGER NOT NULL", "PC sampling: samples lost (hardware buffer full)"},
    {"sampling_period", "INTEGER NOT NULL", "PC sampling: log2 of the cycles between samples"},
};

inline constexpr TableInfo kKernelSourceTable = {
    .name = "kernel_source",
    .doc = "How the source passes of each profiled launch went; one row per launch they were asked for.",
    .columns = kKernelSourceColumns,
};

inline constexpr ColumnInfo kCubinsColumns[] = {
    {"crc", "INTEGER PRIMARY KEY", "CUPTI's cubin CRC (cuptiGetCubinCrc)"},
    {"size", "INTEGER NOT NULL", "bytes of the image before compression"},
    {"image", "BLOB NOT NULL", "the cubin, zlib-compressed"},
};

inline constexpr TableInfo kCubinsTable = {
    .name = "cubins",
    .doc = "The cubins (ELF images, as the driver loaded them) of the functions in instruction_values,\n"
           "so SASS and source lines can be read back anywhere.",
    .columns = kCubinsColumns,
};

inline constexpr ColumnInfo kSassInstructionsColumns[] = {
    {"cubin_crc", "INTEGER NOT NULL", "cubins.crc"},
    {"function_id", "INTEGER NOT NULL", "strings.id of the function (mangled)"},
    {"pc_offset", "INTEGER NOT NULL", "bytes from the function's first instruction"},
    {"sass", "TEXT", "e.g. 'DADD R2, R6, R2'; NULL: no disassembler was found"},
    {"file_id", "INTEGER", "source_files.id; NULL: no line information"},
    {"line", "INTEGER", "1-based line in that file; NULL: no line information"},
};

inline constexpr TableInfo kSassInstructionsTable = {
    .name = "sass_instructions",
    .doc = "Read from the cubins after the run (by the evaluation, on any machine): each instruction's\n"
           "SASS text and source line. Written with kernel_metrics; absent until then.",
    .columns = kSassInstructionsColumns,
    .constraint = "PRIMARY KEY (cubin_crc, function_id, pc_offset)",
    .without_rowid = true,
};

inline constexpr ColumnInfo kSourceFilesColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "what sass_instructions.file_id names"},
    {"path", "TEXT NOT NULL UNIQUE", "as the line table names it (directory joined)"},
    {"content", "TEXT", "the file's text; NULL: not readable when evaluated"},
};

inline constexpr TableInfo kSourceFilesTable = {
    .name = "source_files",
    .doc = "The source files named by sass_instructions, with their text when it could be read at\n"
           "evaluation time (NULL: not found there).",
    .columns = kSourceFilesColumns,
};
// clang-format on

}  // namespace gpuscope::store

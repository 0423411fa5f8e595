// The source counters' tables (`profile --section SourceCounters`): per-instruction values,
// how the source passes went, the cubins, their SASS and lines, the source files; each declared
// once (table_info.h) with the members the writers bind from and the readers fill
// (record_column.h); read back by source_tables.h.
#pragma once

#include <tuple>

#include "model/profile_records.h"
#include "store/evaluation_writer.h"
#include "store/record_column.h"
#include "store/source_tables.h"
#include "store/table_info.h"

namespace gpuscope::store {

// clang-format off
inline constexpr auto kInstructionValuesRecordColumns = std::tuple{
    BoundApart<&StoredInstructionValue::profiled_kernel_id>("profiled_kernel_id", "INTEGER NOT NULL", "profiled_kernels.id"),
    Stores<&model::InstructionValue::cubin_crc, &StoredInstructionValue::cubin_crc>("cubin_crc", "INTEGER NOT NULL", "cubins.crc"),
    StoresKernelName<&model::InstructionValue::function_name, &StoredInstructionValue::function_id>("function_id", "INTEGER NOT NULL", "strings.id of the function (mangled) holding the pc"),
    Stores<&model::InstructionValue::pc_offset, &StoredInstructionValue::pc_offset>("pc_offset", "INTEGER NOT NULL", "bytes from that function's first instruction"),
    StoresName<&model::InstructionValue::metric, &StoredInstructionValue::metric>("metric_id", "INTEGER NOT NULL", "strings.id of the counter: a SASS metric\n"
      "('smsp__sass_inst_executed', ...) or a PC-sampling\n"
      "stall reason ('smsp__pcsamp_warps_issue_stalled_...')"),
    Stores<&model::InstructionValue::value, &StoredInstructionValue::value>("value", "INTEGER NOT NULL", "executions, sectors, wavefronts or samples"),
};
inline constexpr auto kInstructionValuesColumns = ColumnInfosOf(kInstructionValuesRecordColumns);

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

inline constexpr auto kKernelSourceRecordColumns = std::tuple{
    BoundApart("profiled_kernel_id", "INTEGER PRIMARY KEY", "profiled_kernels.id"),
    Stores<&model::SourceCollection::message, &StoredKernelSource::message>("message", "TEXT NOT NULL", "'' when all was collected; else why not (one line)"),
    Stores<&model::SourceCollection::total_samples, &StoredKernelSource::total_samples>("total_samples", "INTEGER NOT NULL", "PC sampling: samples taken"),
    Stores<&model::SourceCollection::dropped_samples, &StoredKernelSource::dropped_samples>("dropped_samples", "INTEGER NOT NULL", "PC sampling: samples lost (hardware buffer full)"),
    Stores<&model::SourceCollection::sampling_period, &StoredKernelSource::sampling_period>("sampling_period", "INTEGER NOT NULL", "PC sampling: log2 of the cycles between samples"),
};
inline constexpr auto kKernelSourceColumns = ColumnInfosOf(kKernelSourceRecordColumns);

inline constexpr TableInfo kKernelSourceTable = {
    .name = "kernel_source",
    .doc = "How the source passes of each profiled launch went; one row per launch they were asked for.",
    .columns = kKernelSourceColumns,
};

// Read back by key (ReadCubinCrcs, ReadCubin), not as rows.
inline constexpr auto kCubinsRecordColumns = std::tuple{
    Stores<&model::CubinImage::crc, nullptr>("crc", "INTEGER PRIMARY KEY", "CUPTI's cubin CRC (cuptiGetCubinCrc)"),
    StoresSize<&model::CubinImage::image, nullptr>("size", "INTEGER NOT NULL", "bytes of the image before compression"),
    // Compressed by the writer (counter_data_codec.h).
    BoundApart("image", "BLOB NOT NULL", "the cubin, zlib-compressed"),
};
inline constexpr auto kCubinsColumns = ColumnInfosOf(kCubinsRecordColumns);

inline constexpr TableInfo kCubinsTable = {
    .name = "cubins",
    .doc = "The cubins (ELF images, as the driver loaded them) of the functions in instruction_values,\n"
           "so SASS and source lines can be read back anywhere.",
    .columns = kCubinsColumns,
};

inline constexpr auto kSassInstructionsRecordColumns = std::tuple{
    Stores<&SassInstructionRow::cubin_crc, &StoredSassInstruction::cubin_crc>("cubin_crc", "INTEGER NOT NULL", "cubins.crc"),
    Stores<&SassInstructionRow::function_id, &StoredSassInstruction::function_id>("function_id", "INTEGER NOT NULL", "strings.id of the function (mangled)"),
    Stores<&SassInstructionRow::pc_offset, &StoredSassInstruction::pc_offset>("pc_offset", "INTEGER NOT NULL", "bytes from the function's first instruction"),
    StoresWholeText<&SassInstructionRow::sass, &StoredSassInstruction::sass>("sass", "TEXT", "e.g. 'DADD R2, R6, R2'; NULL: no disassembler was found"),
    // Bound together by the evaluation, where the row's file was stored (source_files.id).
    BoundApart<&StoredSassInstruction::file_id>("file_id", "INTEGER", "source_files.id; NULL: no line information"),
    // Read apart: a line below 1 reads as none.
    BoundApart("line", "INTEGER", "1-based line in that file; NULL: no line information"),
};
inline constexpr auto kSassInstructionsColumns = ColumnInfosOf(kSassInstructionsRecordColumns);

inline constexpr TableInfo kSassInstructionsTable = {
    .name = "sass_instructions",
    .doc = "Read from the cubins after the run (by the evaluation, on any machine): each instruction's\n"
           "SASS text and source line. Written with kernel_metrics; absent until then.",
    .columns = kSassInstructionsColumns,
    .constraint = "PRIMARY KEY (cubin_crc, function_id, pc_offset)",
    .without_rowid = true,
};

inline constexpr auto kSourceFilesRecordColumns = std::tuple{
    BoundApart("id", "INTEGER PRIMARY KEY", "what sass_instructions.file_id names"),
    Stores<&SourceFiles::value_type::first, &StoredSourceFile::path>("path", "TEXT NOT NULL UNIQUE", "as the line table names it (directory joined)"),
    StoresWholeText<&SourceFiles::value_type::second, &StoredSourceFile::content>("content", "TEXT", "the file's text; NULL: not readable when evaluated"),
};
inline constexpr auto kSourceFilesColumns = ColumnInfosOf(kSourceFilesRecordColumns);

inline constexpr TableInfo kSourceFilesTable = {
    .name = "source_files",
    .doc = "The source files named by sass_instructions, with their text when it could be read at\n"
           "evaluation time (NULL: not found there).",
    .columns = kSourceFilesColumns,
};
// clang-format on

}  // namespace gpuscope::store

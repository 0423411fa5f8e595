// What a report says about its own losses, as one-line warnings: CollectionWarnings reads
// them from the report, LossWarnings words them from plain values (so that every wording is
// tested without a report).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/records.h"
#include "store/report_reader.h"

namespace gpuscope::analysis {

struct CollectionState {
  model::CollectionCounters counters;
  // Records the writer received but could not store (an I/O error while tracing).
  std::uint64_t records_not_written = 0;
  // Their number per table, why the writer stopped (empty: not recorded, reports of older
  // versions) and up to when the data is complete (0: from the start).
  store::LossByTable records_not_written_by_table;
  std::string write_error;
  model::Timestamp complete_until = 0;
  // False while the program runs, or when it ended abruptly (killed, crashed) and nobody
  // finalised the report since: the report then holds what was flushed last.
  bool finalized = true;
  // False when the report's writer never closed it: the process ended abruptly (killed,
  // crashed), even if the launcher finalised the report since. nullopt: not recorded
  // (reports of older gpuscope versions), no warning.
  std::optional<bool> closed_by_writer;
  // ns of gpuscope's replay of profiled launches, taken out of their launch calls' API time
  // (overheads of model::kGpuscopeReplayOverheadKind).
  std::uint64_t profiler_replay_ns = 0;
  model::Timestamp tracing_start = 0;  // ProcessInfo::start
  model::Timestamp last_flush = 0;     // ProcessInfo::end; 0 if never flushed
};

// One line per kind of loss, in a fixed order; empty when nothing was lost.
std::vector<std::string> LossWarnings(const CollectionState& state);

// First, the sticky CUDA error that ended the run, if a call returned one
// (sticky_error_note.h); then one line per kind of loss in the report (dropped records,
// records without timestamps, unfinished NVTX ranges, unknown record kinds, records the
// writer could not store) and, for a report that was not finalized, how far its data goes;
// empty when nothing was lost and no call returned a sticky error.
std::vector<std::string> CollectionWarnings(const store::ReportReader& report);

// One line per event table and kind of damage whose rows were left out as damaged
// (store/damaged_rows.h: "3 rows of kernels end before they start (damaged timestamps):
// skipped"), so that they never vanish silently. The reader's overload counts what it has
// read so far: call it after the reading; it adds ShortenedTextWarning's line.
std::vector<std::string> SkippedRowWarnings(const store::DamagedRows& damaged);
std::vector<std::string> SkippedRowWarnings(const store::ReportReader& report);

// "2 names or other texts longer than 4096 bytes are shortened, ..." when the reader shortened
// any (store/report_text.h), so that no name is cut silently; nullopt otherwise.
std::optional<std::string> ShortenedTextWarning(const store::ReportReader& report);

}  // namespace gpuscope::analysis

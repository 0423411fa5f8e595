#include "analysis/collection_warnings.h"

#include <cstdint>
#include <cstdio>

#include "analysis/sticky_error_note.h"
#include "util/units.h"
#include "model/overhead_kinds.h"
#include "store/event_tables.h"
#include "store/report_text.h"

namespace gpuscope::analysis {

namespace {

// "1 kernel has" / "12 kernels have": a count followed by the matching form.
std::string Counted(std::uint64_t count, const char* singular, const char* plural) {
  return std::to_string(count) + " " + (count == 1 ? singular : plural);
}

}  // namespace

std::vector<std::string> LossWarnings(const CollectionState& state) {
  const model::CollectionCounters& counters = state.counters;
  std::vector<std::string> warnings;
  // A report the launcher finalised after a crash looks complete; only the writer's own
  // close tells them apart.
  const bool writer_never_closed = state.closed_by_writer.has_value() && !*state.closed_by_writer;
  const char* cut_short =
      !state.finalized ? "the report was not finalized (the program ended abruptly or is still "
                         "running)"
      : writer_never_closed ? "the report was not closed by its writer (the process ended abruptly)"
                            : nullptr;
  if (cut_short != nullptr) {
    if (state.last_flush == 0) {
      warnings.push_back(std::string(cut_short) + " and was never flushed: it holds no activity");
    } else {
      std::string when =
          state.last_flush > state.tracing_start && state.tracing_start != 0
              ? " (" +
                    FormatTime(static_cast<double>(state.last_flush - state.tracing_start),
                               TimeUnit::kAuto) +
                    " after tracing began)"
              : "";
      warnings.push_back(std::string(cut_short) + ": the data is complete up to the last flush" +
                         when + ", anything later is missing");
    }
  }
  if (state.records_not_written > 0 && !state.write_error.empty()) {
    const std::string from =
        state.complete_until > state.tracing_start && state.tracing_start != 0
            ? FormatTime(static_cast<double>(state.complete_until - state.tracing_start),
                         TimeUnit::kAuto) +
                  " after tracing began"
            : "the start of tracing";
    const std::string by_table = store::DescribeLossByTable(state.records_not_written_by_table);
    warnings.push_back("the report is incomplete from " + from + " (" + state.write_error +
                       "): " + Counted(state.records_not_written, "record", "records") +
                       " could not be written" + (by_table.empty() ? "" : " (" + by_table + ")") +
                       "; the summary is incomplete");
  } else if (state.records_not_written > 0) {
    warnings.push_back(Counted(state.records_not_written, "record", "records") +
                       " could not be written to the report (an I/O error while tracing); the "
                       "summary is incomplete");
  }
  if (counters.dropped_records > 0) {
    warnings.push_back(Counted(counters.dropped_records, "record was", "records were") +
                       " dropped by CUPTI (its buffers were full); the summary is incomplete");
  }
  if (counters.kernels_without_timestamp > 0) {
    warnings.push_back(Counted(counters.kernels_without_timestamp, "kernel has", "kernels have") +
                       " no timestamps and " +
                       (counters.kernels_without_timestamp == 1 ? "is" : "are") + " not timed");
  }
  if (counters.copies_without_timestamp > 0) {
    warnings.push_back(
        Counted(counters.copies_without_timestamp, "memory copy has", "memory copies have") +
        " no timestamps and " + (counters.copies_without_timestamp == 1 ? "is" : "are") +
        " not timed");
  }
  if (counters.memsets_without_timestamp > 0) {
    warnings.push_back(Counted(counters.memsets_without_timestamp, "memset has", "memsets have") +
                       " no timestamps and " +
                       (counters.memsets_without_timestamp == 1 ? "is" : "are") + " not timed");
  }
  if (counters.unknown_records > 0) {
    warnings.push_back(Counted(counters.unknown_records, "CUPTI record", "CUPTI records") +
                       " of kinds gpuscope does not read " +
                       (counters.unknown_records == 1 ? "was" : "were") + " skipped");
  }
  if (counters.unfinished_nvtx_ranges > 0) {
    warnings.push_back(
        Counted(counters.unfinished_nvtx_ranges, "NVTX range was", "NVTX ranges were") +
        " never ended");
  }
  if (counters.unreadable_buffers > 0) {
    warnings.push_back(Counted(counters.unreadable_buffers, "CUPTI buffer", "CUPTI buffers") +
                       " could not be read to the end; the records after the damage are missing");
  }
  if (counters.tracing_paused_ns > 0) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.1f", static_cast<double>(counters.tracing_paused_ns) / 1e6);
    warnings.push_back(std::string("tracing was paused for ") + ms +
                       " ms while gpuscope replayed profiled launches for their source counters "
                       "(CUPTI's SASS patching counts nothing while tracing is on); work other "
                       "threads did then is not in the trace");
  }
  if (counters.stacks_dropped > 0) {
    warnings.push_back(Counted(counters.stacks_dropped, "CUDA call", "CUDA calls") +
                       " had no call stack recorded (--backtrace: a table in the traced process "
                       "was full)");
  }
  if (state.profiler_replay_ns > 0) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.1f", static_cast<double>(state.profiler_replay_ns) / 1e6);
    warnings.push_back(std::string("gpuscope's replay of profiled launches took ") + ms +
                       " ms inside their launch calls; it is shown as profiler time "
                       "(overheads), not as the program's API time");
  }
  return warnings;
}

// A report's own record of its losses, put into words, after the sticky CUDA error that
// ended the run, if any.
std::vector<std::string> CollectionWarnings(const store::ReportReader& report) {
  CollectionState state;
  state.counters = report.counters();
  state.records_not_written = report.records_not_written();
  state.records_not_written_by_table = report.records_not_written_by_table();
  state.write_error = report.write_error();
  state.complete_until = report.complete_until();
  state.finalized = report.finalized();
  state.closed_by_writer = report.closed_by_writer();
  state.tracing_start = report.process().start;
  state.last_flush = report.process().end;
  // The replay rows are few (one per profiled launch); a table that cannot be read only
  // costs this line.
  (void)report.ForEachOverhead([&](const model::OverheadRecord& overhead) {
    if (overhead.overhead_kind == model::kGpuscopeReplayOverheadKind) {
      state.profiler_replay_ns += overhead.end - overhead.start;
    }
    return true;
  });
  std::vector<std::string> warnings;
  // Why a crashed run ended comes first. A report whose api_calls cannot be queried says so
  // through the readers of that table; here it only lacks this line.
  StatusOr<std::optional<store::StickyErrorCalls>> sticky = store::FindStickyErrorCalls(report);
  if (sticky.ok() && sticky->has_value()) {
    warnings.push_back(StickyErrorNote(**sticky, state.tracing_start));
  }
  for (std::string& warning : LossWarnings(state)) warnings.push_back(std::move(warning));
  return warnings;
}

std::vector<std::string> SkippedRowWarnings(const store::DamagedRows& damaged) {
  using store::Damage;
  struct Wording {
    Damage damage;
    const char* one;   // after "1 row of <table>"
    const char* many;  // after "N rows of <table>"
  };
  static constexpr Wording kWordings[] = {
      {Damage::kEndsBeforeStart, " ends before it starts (damaged timestamps)",
       " end before they start (damaged timestamps)"},
      {Damage::kOutsideTheRun, " lies outside the run (damaged timestamps)",
       " lie outside the run (damaged timestamps)"},
      {Damage::kBadLaunchDimension,
       " has a grid or block dimension of 0 or less (damaged launch configuration)",
       " have a grid or block dimension of 0 or less (damaged launch configuration)"},
  };
  std::vector<std::string> warnings;
  for (std::size_t table = 0; table < store::kNumEventTables; ++table) {
    for (const Wording& wording : kWordings) {
      std::uint64_t skipped = damaged.count(table, wording.damage);
      if (skipped == 0) continue;
      const bool one = skipped == 1;
      warnings.push_back(std::to_string(skipped) + (one ? " row of " : " rows of ") +
                         std::string(store::kEventTables[table].name) +
                         (one ? wording.one : wording.many) + ": skipped");
    }
  }
  return warnings;
}

std::optional<std::string> ShortenedTextWarning(const store::ReportReader& report) {
  const std::uint64_t shortened = report.shortened_texts();
  if (shortened == 0) return std::nullopt;
  return Counted(shortened, "name or other text", "names or other texts") + " longer than " +
         std::to_string(store::kMaxReportTextBytes) + " bytes " + (shortened == 1 ? "is" : "are") +
         " shortened, ending in \"...[<bytes> bytes, #<hash>]\" (a damaged or crafted report?)";
}

std::vector<std::string> SkippedRowWarnings(const store::ReportReader& report) {
  std::vector<std::string> warnings = SkippedRowWarnings(report.damaged_rows());
  if (std::optional<std::string> shortened = ShortenedTextWarning(report)) {
    warnings.push_back(std::move(*shortened));
  }
  return warnings;
}

}  // namespace gpuscope::analysis

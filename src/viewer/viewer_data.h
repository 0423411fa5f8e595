// The reports a viewer session shows, each opened once with its track index, and the JSON
// answers of docs/viewer-api.md built from them. Used by the HTTP server (`gpuscope view`)
// and by the self-contained HTML report (`gpuscope report`), so both give the same data.
//
// Thread-safe: the server's workers call it concurrently, and no lock is held while an
// answer is computed, so a slow answer (a summary of a huge report) delays no other request,
// on that report or another, /api/reports included. The track indexes are built once and
// only read afterwards. A report reader is used by one thread at a time, so each answer that
// reads the file borrows a reader of its own (viewer/reader_pool.h). What is computed once
// and kept (a report's profiles and findings, summaries) is computed by its first caller,
// with the callers that ask meanwhile waiting for that result (viewer/computed_once.h).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/ranks/rank_placement.h"
#include "analysis/time_window.h"
#include "analysis/trace_tables.h"
#include "store/event_attributes.h"
#include "store/report_reader.h"
#include "util/status.h"
#include "viewer/axis_alignment.h"
#include "viewer/computed_once.h"
#include "viewer/reader_pool.h"
#include "viewer/report_profiles.h"
#include "viewer/track_index.h"

namespace gpuscope::viewer {

// What `gpuscope report` embeds about an event next to its times (docs/viewer-api.md,
// "Embedded format"), so that the page's tooltip, details and related events need no server:
// the correlation ids, a kernel's launch configuration, a copy's or memset's bytes and the
// copy kind's name. Zero (empty) where a column does not apply or is NULL.
using EventFacts = store::EventAttributes;

class ViewerData {
 public:
  // Opens every report and indexes it; the first that fails ends it (message names it).
  static StatusOr<std::unique_ptr<ViewerData>> Open(const std::vector<std::string>& paths);

  std::size_t size() const { return reports_.size(); }
  const TrackIndex& index(std::size_t i) const { return *reports_[i].index; }

  // /api/reports: every report; ReportJson: one entry of it. A report's "path" is its file
  // name alone: the page shows it, and the directories above it are none of its business.
  std::string ReportsJson() const;
  std::string ReportJson(std::size_t report) const;
  // /api/tracks
  std::string TracksJson(std::size_t report) const;
  // /api/event: every column of the row plus "related". An error when there is no such row.
  StatusOr<std::string> EventJson(std::size_t report, EventType type, std::uint32_t id) const;
  // /api/summary: {"tables":{...}} over the given reports, each counted once however often
  // it is listed (cached per set of reports, up to kMaxCachedSummaries sets). Its trace
  // tables hold their earliest kSummaryTraceRows rows, as EmbeddedSummaryJson's: a summary of
  // a million events was 755 MB and took minutes; the timeline shows every event.
  StatusOr<std::string> SummaryJson(std::span<const std::size_t> reports);
  static constexpr std::size_t kMaxCachedSummaries = 32;
  static constexpr std::uint64_t kSummaryTraceRows = 5000;
  // SummaryJson over every report as `gpuscope report` embeds it: the trace tables
  // (analysis::IsTraceTable), whose rows grow with the events, hold their earliest
  // `max_trace_rows` rows, built in memory that follows that number. When rows were left
  // out, "embedded_rows" says per table {"rows":N,"total":M}, and `cuts` gets the same.
  StatusOr<std::string> EmbeddedSummaryJson(std::uint64_t max_trace_rows,
                                            std::map<std::string, analysis::TraceTableCut>& cuts);
  // /api/summary with start and end: the tables that can be restricted to a time range
  // (analysis::WindowedStatsReportNames), over the events that overlap `window`, through the
  // code of `gpuscope stats`. Not cached: every selection is another range.
  StatusOr<std::string> RangeSummaryJson(std::span<const std::size_t> reports,
                                         const analysis::TimeWindow& window);
  // /api/kernel: an error when the report has no kernel of that (demangled) name.
  StatusOr<std::string> KernelJson(std::size_t report, const std::string& name) const;
  // {"<name>": <kernel page>, ...} for every kernel of a report (the HTML report embeds it).
  StatusOr<std::string> AllKernelsJson(std::size_t report) const;
  // Fills facts[id] for every id that is already a key of `facts`, from the rows of that
  // type's table (kernels, memcpys, memsets, api_calls; NVTX events have none to give). Only
  // the rows between the smallest and the largest id asked for are read.
  Status FillEventFacts(std::size_t report, EventType type,
                        std::unordered_map<std::uint32_t, EventFacts>& facts) const;
  // /api/diff
  std::string DiffJson(std::size_t a, std::size_t b) const;
  // The time axis the command line asked for (`--align`; default: starts), and
  // /api/alignment's answer without `nvtx`: AxisAlignmentJson of it. An NVTX range to align
  // on must be in every report: an error naming those without it (nothing is changed), said
  // before a page opens on something else.
  Status SetAlignment(AxisAlignment alignment);
  const AxisAlignment& alignment() const { return alignment_; }
  // Where the first instance of the NVTX range `range` starts in each report (absolute ns,
  // in report order); an error naming the reports that have none (axis_alignment.h).
  StatusOr<std::vector<std::uint64_t>> NvtxRangeAnchors(std::string_view range) const;
  // /api/alignment?nvtx=NAME: {"range":NAME,"starts":[...]} (NvtxRangeAnchors).
  StatusOr<std::string> NvtxRangeAnchorsJson(std::string_view range) const;
  // /api/findings: the report's trace and kernel findings (viewer/report_findings.h),
  // computed on first use and kept.
  StatusOr<std::string> FindingsJson(std::size_t report) const;

  // Called on the computing thread before each summary's tables are computed (with the
  // readers borrowed), so that tests can make a summary as slow as they need. Set it before
  // serving.
  void set_summary_hook_for_testing(std::function<void()> hook) {
    summary_hook_for_testing_ = std::move(hook);
  }

 private:
  struct Loaded {
    std::string name;  // the report's file name, without its directories
    std::unique_ptr<ReaderPool> readers;
    std::unique_ptr<TrackIndex> index;
    // Loaded on first use (/api/reports' has_metrics, a kernel page) and kept: it joins the
    // profiled launches with their kernel records, a scan not worth repeating per page.
    std::unique_ptr<ComputedOnce<std::unique_ptr<ReportProfiles>>> profiles =
        std::make_unique<ComputedOnce<std::unique_ptr<ReportProfiles>>>();
    // Loaded on first use and kept: the trace rules stream the whole report.
    std::unique_ptr<ComputedOnce<std::string>> findings =
        std::make_unique<ComputedOnce<std::string>>();
  };
  // A reader of the report for this thread alone; an error names the report.
  StatusOr<ReaderPool::Lease> Borrow(std::size_t report) const;
  // ReportJson's ,"rank":N|null,"label":...,"clock":{offset,error,method,position}|null.
  std::string RankJson(std::size_t report) const;
  // The report's profiles (loading them the first time); an error names the report.
  StatusOr<const ReportProfiles*> Profiles(std::size_t report) const;
  // {"tables":{name: rows}} over the reports (sorted, each once), as stats --format json.
  // With `max_trace_rows`, the trace tables are cut as EmbeddedSummaryJson says (`cuts`).
  StatusOr<std::string> TablesJson(
      const std::vector<std::size_t>& sorted_reports, const std::vector<std::string>& names,
      const analysis::TimeWindow& window, std::optional<std::uint64_t> max_trace_rows = {},
      std::map<std::string, analysis::TraceTableCut>* cuts = nullptr) const;
  ViewerData() = default;
  std::vector<Loaded> reports_;
  AxisAlignment alignment_;
  // Reports that carry ranks: each one's clock offset and label (rank_placement.h), index i
  // for report i; empty when no report carries a rank.
  std::vector<analysis::ranks::RankPlacement> placements_;
  std::mutex summaries_mutex_;  // guards summaries_ only, never held while computing one
  std::map<std::vector<std::size_t>, std::shared_ptr<ComputedOnce<std::string>>> summaries_;
  std::function<void()> summary_hook_for_testing_;
};

}  // namespace gpuscope::viewer

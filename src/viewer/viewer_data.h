// The reports a viewer session shows, each opened once with its track index, and the JSON
// answers of docs/viewer-api.md built from them. Used by the HTTP server (`gpuscope view`)
// and by the self-contained HTML report (`gpuscope report`), so both give the same data.
//
// Thread-safe: the server's workers call it concurrently. The track indexes are built once
// and only read afterwards, so answers from them (tracks, slices, diff) take no lock. A
// report reader is used by one thread at a time, so each report has a mutex, held while its
// reader or its lazily loaded profiles are used; a summary over several reports locks them
// in ascending order, so two summaries cannot deadlock.
#pragma once

#include <cstdint>
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
#include "store/event_attributes.h"
#include "store/report_reader.h"
#include "util/status.h"
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

  // /api/reports: every report; ReportJson: one entry of it.
  std::string ReportsJson() const;
  std::string ReportJson(std::size_t report) const;
  // /api/tracks
  std::string TracksJson(std::size_t report) const;
  // /api/event: every column of the row plus "related". An error when there is no such row.
  StatusOr<std::string> EventJson(std::size_t report, EventType type, std::uint32_t id) const;
  // /api/summary: {"tables":{...}} over the given reports, each counted once however often
  // it is listed (cached per set of reports, up to kMaxCachedSummaries sets).
  StatusOr<std::string> SummaryJson(std::span<const std::size_t> reports);
  static constexpr std::size_t kMaxCachedSummaries = 32;
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
  // /api/findings: the report's trace and kernel findings (viewer/report_findings.h),
  // computed on first use and kept.
  StatusOr<std::string> FindingsJson(std::size_t report) const;

 private:
  struct Loaded {
    std::unique_ptr<store::ReportReader> reader;
    std::unique_ptr<TrackIndex> index;
    // Loaded on first use (/api/reports' has_metrics, a kernel page) and kept: it joins the
    // profiled launches with their kernel records, a scan not worth repeating per page.
    mutable std::unique_ptr<ReportProfiles> profiles;
    // Loaded on first use and kept: the trace rules stream the whole report.
    mutable std::optional<std::string> findings;
    // Held while `reader` or `profiles` is used (a pointer: Loaded moves, a mutex does not).
    std::unique_ptr<std::mutex> mutex = std::make_unique<std::mutex>();
  };
  std::unique_lock<std::mutex> Lock(std::size_t report) const {
    return std::unique_lock<std::mutex>(*reports_[report].mutex);
  }
  // ReportJson's ,"rank":N|null,"label":...,"clock":{offset,error,method,position}|null.
  std::string RankJson(std::size_t report) const;
  // The report's profiles (loading them the first time); an error names the report. The
  // caller holds the report's lock.
  StatusOr<const ReportProfiles*> Profiles(std::size_t report) const;
  // {"tables":{name: rows}} over the reports (sorted, each once), as stats --format json.
  StatusOr<std::string> TablesJson(const std::vector<std::size_t>& sorted_reports,
                                   const std::vector<std::string>& names,
                                   const analysis::TimeWindow& window) const;
  ViewerData() = default;
  std::vector<Loaded> reports_;
  // Reports that carry ranks: each one's clock offset and label (rank_placement.h), index i
  // for report i; empty when no report carries a rank.
  std::vector<analysis::ranks::RankPlacement> placements_;
  std::mutex summaries_mutex_;  // guards summaries_ only, never held while computing one
  std::map<std::vector<std::size_t>, std::string> summaries_;
};

}  // namespace gpuscope::viewer

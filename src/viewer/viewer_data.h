// The reports a viewer session shows, each opened once with its track index, and the JSON
// answers of docs/viewer-api.md built from them. Used by the HTTP server (`gpuscope view`)
// and by the self-contained HTML report (`gpuscope report`), so both give the same data.
// Not thread-safe: the server answers one request at a time.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "store/report_reader.h"
#include "util/status.h"
#include "viewer/track_index.h"

namespace gpuscope::viewer {

class ViewerData {
 public:
  // Opens every report and indexes it; the first that fails ends it (message names it).
  static StatusOr<std::unique_ptr<ViewerData>> Open(const std::vector<std::string>& paths);

  std::size_t size() const { return reports_.size(); }
  const store::ReportReader& reader(std::size_t i) const { return *reports_[i].reader; }
  const TrackIndex& index(std::size_t i) const { return *reports_[i].index; }

  // /api/reports: every report; ReportJson: one entry of it.
  std::string ReportsJson() const;
  std::string ReportJson(std::size_t report) const;
  // /api/tracks
  std::string TracksJson(std::size_t report) const;
  // /api/event: every column of the row plus "related". An error when there is no such row.
  StatusOr<std::string> EventJson(std::size_t report, EventType type, std::uint32_t id) const;
  // /api/summary: {"tables":{...}} over the given reports (cached per set of reports).
  StatusOr<std::string> SummaryJson(std::span<const std::size_t> reports);
  // /api/kernel: an error when the report has no kernel of that (demangled) name.
  StatusOr<std::string> KernelJson(std::size_t report, const std::string& name) const;
  // {"<name>": <kernel page>, ...} for every kernel of a report (the HTML report embeds it).
  StatusOr<std::string> AllKernelsJson(std::size_t report) const;
  // /api/diff
  std::string DiffJson(std::size_t a, std::size_t b) const;

 private:
  struct Loaded {
    std::unique_ptr<store::ReportReader> reader;
    std::unique_ptr<TrackIndex> index;
  };
  ViewerData() = default;
  std::vector<Loaded> reports_;
  std::map<std::vector<std::size_t>, std::string> summaries_;
};

}  // namespace gpuscope::viewer

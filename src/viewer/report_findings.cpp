#include "viewer/report_findings.h"

#include <optional>

#include "analysis/trace_rules/run_trace_rules.h"
#include "render/escaping.h"

namespace gpuscope::viewer {
namespace {

using render::JsonString;

// The timeline event that shows a cited row: the one of the row's table carrying its
// correlation id, at its start when several do (a copy is filed under its driver and its
// runtime call's ids).
std::optional<CorrelatedEvent> EventOf(const TrackIndex& index, const analysis::CitedRow& row) {
  const bool api = row.table == "api_calls";
  std::optional<CorrelatedEvent> found;
  for (const CorrelatedEvent& candidate :
       index.Correlated(static_cast<std::uint32_t>(row.id), !api)) {
    const TrackEvent& event = index.tracks()[candidate.track].events[candidate.index];
    const std::string_view type = EventTypeName(event.type());
    const bool same_table = (row.table == "kernels" && type == "kernel") ||
                            (row.table == "memcpys" && type == "memcpy") ||
                            (row.table == "memsets" && type == "memset") || api;
    if (!same_table) continue;
    if (event.start == row.start) return candidate;
    if (!found) found = candidate;
  }
  return found;
}

std::string CitedJson(const TrackIndex& index, const analysis::CitedRow& row) {
  std::string out =
      "{\"table\":" + JsonString(row.table) + ",\"correlation\":" + std::to_string(row.id) +
      ",\"note\":" + JsonString(row.note) + ",\"duration\":" + std::to_string(row.duration_ns);
  if (std::optional<CorrelatedEvent> at = EventOf(index, row)) {
    const Track& track = index.tracks()[at->track];
    const TrackEvent& event = track.events[at->index];
    out += ",\"type\":\"" + std::string(EventTypeName(event.type())) +
           "\",\"id\":" + std::to_string(event.id) + ",\"track\":" + JsonString(track.id) +
           ",\"s\":" + std::to_string(event.start) + ",\"e\":" + std::to_string(event.end);
  }
  return out + "}";
}

std::string TraceFindingJson(const TrackIndex& index, const analysis::Finding& finding) {
  std::string out = "{\"rule\":" + JsonString(finding.rule_id) +
                    ",\"severity\":" + JsonString(analysis::SeverityName(finding.severity)) +
                    ",\"title\":" + JsonString(finding.title) +
                    ",\"message\":" + JsonString(finding.message) +
                    ",\"gain\":" + std::to_string(finding.est_gain_ns) +
                    ",\"occurrences\":" + std::to_string(finding.occurrences) +
                    ",\"time\":" + std::to_string(finding.time_ns) + ",\"cited\":[";
  for (std::size_t i = 0; i < finding.cited.size(); ++i) {
    out += (i ? "," : "") + CitedJson(index, finding.cited[i]);
  }
  return out + "]}";
}

}  // namespace

StatusOr<std::string> ReportFindingsJson(const store::ReportReader& reader, const TrackIndex& index,
                                         const ReportProfiles& profiles) {
  StatusOr<std::vector<analysis::Finding>> trace = analysis::trace_rules::RunTraceRules(reader);
  if (!trace.ok()) return Status::Error(reader.path() + ": " + trace.status().message());
  std::string out = "{\"trace\":[";
  for (std::size_t i = 0; i < trace->size(); ++i) {
    out += (i ? "," : "") + TraceFindingJson(index, (*trace)[i]);
  }
  return out + "],\"kernels\":" + profiles.KernelFindingsJson() + "}";
}

}  // namespace gpuscope::viewer

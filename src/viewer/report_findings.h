// The findings of one report for the viewer (/api/findings, and `gpuscope report`'s embedded
// "findings"): the trace rules' findings (analysis/trace_rules, as `gpuscope stats --rules`
// prints them) with each cited row resolved to the timeline event that shows it, and the
// kernel rules' findings (analysis/rules) of every profiled kernel, as its kernel page shows
// them. The page lists them and puts each next to the rows it cites.
#pragma once

#include <string>

#include "store/report_reader.h"
#include "util/status.h"
#include "viewer/report_profiles.h"
#include "viewer/track_index.h"

namespace gpuscope::viewer {

// {"trace":[{"rule","severity","title","message","gain","occurrences","time",
//   "cited":[{"table","correlation","note","duration","type","id","track","s","e"}]}],
//  "kernels":[{"kernel","findings":[<as /api/kernel's "findings">]}]}
// A cited row that no timeline event shows (an untimed row) has no "type"/"id"/"track"/
// "s"/"e". Streams the report once (bounded memory, as the trace rules do).
StatusOr<std::string> ReportFindingsJson(const store::ReportReader& reader, const TrackIndex& index,
                                         const ReportProfiles& profiles);

}  // namespace gpuscope::viewer

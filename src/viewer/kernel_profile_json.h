// The profile parts of a kernel page (docs/viewer-api.md, /api/kernel): one profiled launch's
// sections, findings, roofline and occupancy as the JSON that src/viewer/web/kernel_page.js
// renders. Every value comes from the analysis code the text pages use (EvaluateSections,
// RunKernelRules, ComputeRoofline, TheoreticalOccupancy), so the browser shows the numbers
// `gpuscope stats --page details` prints; only the encoding is done here.
#pragma once

#include <string>
#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "analysis/metrics/section_catalog.h"
#include "analysis/source/source_view.h"

namespace gpuscope::viewer {

// [{"name":<section display name>,"id":<ncu identifier>,"metrics":[{"name":<label>,
// "unit":<unit as the text page prints it>,"value":<scaled number, or "n/a">,"text":<the
// value as the text page prints it>,"table":<"" for the header table, else the body table>}]}]
std::string SectionsJson(const analysis::metrics::KernelProfile& profile,
                         const std::vector<const analysis::metrics::Section*>& sections);

// [{"severity":"OPT","title":...,"rule":<rule id>,"section":<ncu section id>,"message":...,
// "speedup":<percent or null>,"speedup_formula":...}], biggest estimated speedup first.
// `source`: the kernel's source page, when the report has one: the messages name their lines.
std::string FindingsJson(const analysis::metrics::KernelProfile& profile,
                         const analysis::source::KernelSource* source = nullptr);

// {"peak_flops","peak_bandwidth","ceilings":[{"name","flops"|"bandwidth"}],"points":[{"label",
// "intensity","performance"}],"precision","verdict":{...},"rates":[...],"levels":[...],
// "duration_ns","sm_throughput_pct","memory_throughput_pct","missing":[...]}.
std::string RooflineJson(const analysis::metrics::KernelProfile& profile);

// {"theoretical":<percent or null>,"achieved":<percent or null>,"limits":{<resource>:<blocks or
// "unlimited">},"limiters":[...],"blocks_per_sm","active_warps_per_sm","max_warps_per_sm",
// "graphs":[{"name","id","x_label","current","points":[[x,percent],...]}],"error"?}; "null"
// when neither the theoretical nor the achieved occupancy is known.
std::string OccupancyJson(const analysis::metrics::KernelProfile& profile);

// A double as a JSON number; NaN and infinities (which JSON cannot hold) become null.
std::string JsonNumber(double value);

}  // namespace gpuscope::viewer

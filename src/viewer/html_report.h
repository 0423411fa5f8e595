// `gpuscope report`: one self-contained HTML file that needs no server and no network.
//
// The page is the viewer's index.html with its stylesheets inlined as <style>, its ES
// modules carried as text in <script type="application/json" id="gpuscope-modules"> and
// started by a small inline loader (each module becomes a blob: URL, with its relative
// imports rewritten to the blob URLs of the modules they name), and the data of
// docs/viewer-api.md's "Embedded format" in <script type="application/json"
// id="gpuscope-data">. Every "</" inside embedded text is written "<\/" (and "<!--" as
// "\u003c!--"), so no string from a report - a kernel named
// "</script><script>alert(1)</script>" - can end the element it sits in.
//
// Event limit: a report with more than `max_events_per_report` timeline events (default
// kDefaultEmbedEventLimit, 200,000: about 15 MB of HTML) is cut in time: the events that
// start before the earliest time at which the limit would be passed are embedded, and the
// report's "embedded" entry says how many of how many, and where it was cut, so the page
// can say so. `gpuscope view` has no such limit.
//
// Trace table limit: the summary's trace tables (cuda_gpu_trace, cuda_api_trace), one row
// per GPU operation or API call of every report, hold their earliest `max_trace_rows` rows
// (default kDefaultEmbedTraceRows, 5,000: about 2.5 MB of HTML for both), built in memory that
// follows that number; "summary"'s "embedded_rows" says how many of how many, and the page
// says so under the table. Without it a report of a million events made 773 MB of HTML.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "analysis/trace_tables.h"
#include "util/status.h"
#include "viewer/viewer_data.h"
#include "viewer/web_assets.h"

namespace gpuscope::viewer {

inline constexpr std::uint64_t kDefaultEmbedEventLimit = 200000;
inline constexpr std::uint64_t kDefaultEmbedTraceRows = ViewerData::kSummaryTraceRows;

struct HtmlReportOptions {
  std::uint64_t max_events_per_report = kDefaultEmbedEventLimit;
  std::uint64_t max_trace_rows = kDefaultEmbedTraceRows;
};

struct HtmlReportStats {
  std::uint64_t embedded_events = 0;
  std::uint64_t total_events = 0;
  bool truncated = false;  // some report was cut at the limit
  // The trace tables cut at max_trace_rows, by name (none when every row fit).
  std::map<std::string, analysis::TraceTableCut> trace_cuts;
};

StatusOr<HtmlReportStats> WriteHtmlReport(ViewerData& data, std::span<const EmbeddedFile> assets,
                                          const HtmlReportOptions& options, std::ostream& out);

// JSON text made safe inside a <script> element: "</" -> "<\/", "<!--" -> "\u003c!--".
// Both only occur inside JSON strings, where the replacements mean the same characters.
std::string ScriptSafe(std::string_view json);

}  // namespace gpuscope::viewer

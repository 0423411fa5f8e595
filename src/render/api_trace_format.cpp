#include "render/api_trace_format.h"

#include "analysis/duration_stats.h"
#include "util/units.h"
#include "render/escaping.h"
#include "render/word_wrap.h"

namespace gpuscope::render {

using analysis::HasTimestamps;
using analysis::NameGroups;

ApiTraceFormatter::ApiTraceFormatter(const OutputOptions& options, const NameGroups* names)
    : options_(options), names_(names) {
  // Same widths as the GPU trace: nvprof's, wider for a fixed unit.
  bool fixed = options.unit != TimeUnit::kAuto;
  start_width_ = fixed ? 16 : 8;
  duration_width_ = fixed ? 16 : 10;
}

void ApiTraceFormatter::WriteHeader(std::ostream& out) {
  if (options_.csv) {
    std::string suffix(TimeUnitSuffix(CsvTimeUnit(options_.unit)));
    out << "\"Start\",\"Duration\",\"Name\",\"Correlation_ID\"\n"
        << suffix << ',' << suffix << ",,\n";
    return;
  }
  line_.clear();
  AppendRight(line_, "Start", start_width_);
  AppendRight(line_, "Duration", duration_width_);
  line_.append("  Name\n");
  out << line_;
}

void ApiTraceFormatter::WriteRow(const ApiTraceRow& row, std::uint64_t base, std::ostream& out) {
  bool timed = HasTimestamps(row.start, row.end);
  double since_base = timed && row.start > base ? static_cast<double>(row.start - base) : 0;
  double duration = timed ? static_cast<double>(row.end - row.start) : 0;
  const std::string& name = names_->name(row.name_group);
  line_.clear();
  if (options_.csv) {
    if (timed) {
      line_.append(FormatCsvTime(since_base, options_.unit)).push_back(',');
      line_.append(FormatCsvTime(duration, options_.unit)).push_back(',');
    } else {
      line_.append(",,");
    }
    line_.append(CsvQuoted(name)).push_back(',');
    line_.append(std::to_string(row.correlation_id));
  } else {
    AppendRight(line_, timed ? FormatTime(since_base, options_.unit) : "-", start_width_);
    AppendRight(line_, timed ? FormatTime(duration, options_.unit) : "-", duration_width_);
    line_.append("  ").append(TerminalText(name));  // the program's text: no raw escapes
  }
  line_.push_back('\n');
  out << line_;
}

}  // namespace gpuscope::render

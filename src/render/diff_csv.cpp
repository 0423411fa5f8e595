// `gpuscope diff --format csv`: one row per compared value, unscaled (diff_format.h).
#include "analysis/metrics/value_format.h"
#include "render/diff_format.h"
#include "render/diff_values.h"
#include "render/escaping.h"

namespace gpuscope::render {

using analysis::diff::ChangeName;
using analysis::diff::DirectionName;
using analysis::diff::KernelDiff;
using analysis::diff::KernelOnlyIn;
using analysis::diff::LaunchConfig;
using analysis::diff::MetricDelta;
using analysis::diff::RangeDiff;
using analysis::diff::RangeOnlyIn;
using analysis::diff::ReportDiff;

namespace {

std::string Raw(double value) { return analysis::metrics::FormatRawNumber(value); }

// The columns that say what a row is about.
struct Subject {
  std::string kind;  // "kernel", "nvtx_range"
  std::string function;
  std::string name;
  std::vector<LaunchConfig> configs_before;
  std::vector<LaunchConfig> configs_after;
  std::string status;
  std::size_t before = 0;  // launches or instances
  std::size_t after = 0;
  bool regression = false;
};

void CsvRow(std::ostream& out, const Subject& s, const MetricDelta* d) {
  out << s.kind << ',' << CsvField(s.function) << ',' << CsvField(s.name) << ','
      << CsvField(ConfigText(s.configs_before, true)) << ','
      << CsvField(ConfigText(s.configs_after, true)) << ','
      << CsvField(ConfigText(s.configs_before, false)) << ','
      << CsvField(ConfigText(s.configs_after, false)) << ',' << s.status << ',' << s.before << ','
      << s.after;
  if (d) {
    out << ',' << CsvField(d->name) << ',' << CsvField(MetricLabel(*d)) << ','
        << CsvField(d->unit) << ',' << Raw(d->before.mean) << ',' << Raw(d->after.mean) << ','
        << Raw(d->delta) << ',' << (d->relative ? Raw(*d->relative * 100.0) : "") << ','
        << CsvField(DirectionName(d->direction)) << ',' << ChangeName(d->change) << ','
        << (d->beyond_noise ? "yes" : "no") << ',' << Raw(d->noise * 100.0) << ','
        << CsvField(d->noise_source);
  } else {
    out << ",,,,,,,,,,,,";
  }
  out << ',' << (s.regression ? "yes" : "no") << '\n';
}

Subject KernelSubject(const KernelDiff& k) {
  return {"kernel",         k.function_name,   k.key.name,        k.configs_before,
          k.configs_after,  "matched",         k.launches_before, k.launches_after,
          k.regression};
}

Subject OnlyInSubject(const KernelOnlyIn& k, bool before) {
  return {"kernel",
          k.function_name,
          k.key.name,
          before ? k.configs : std::vector<LaunchConfig>{},
          before ? std::vector<LaunchConfig>{} : k.configs,
          before ? "only in before" : "only in after",
          before ? k.launches : 0,
          before ? 0 : k.launches,
          false};
}

Subject RangeSubject(const RangeOnlyIn& r, bool before) {
  return {"nvtx_range", "", r.name, {}, {}, before ? "only in before" : "only in after",
          before ? r.instances : 0, before ? 0 : r.instances, false};
}

}  // namespace

void WriteDiffCsv(const ReportDiff& diff, std::ostream& out) {
  out << "Kind,Function,Name,Grid Before,Grid After,Block Before,Block After,Status,"
         "Launches Before,Launches After,Metric,Metric Name,Unit,Before,After,Delta,Delta %,"
         "Direction,Change,Beyond Noise,Noise %,Noise Source,Regression\n";
  for (const KernelDiff& k : diff.kernels) {
    Subject subject = KernelSubject(k);
    if (k.duration) CsvRow(out, subject, &*k.duration);
    for (const MetricDelta& m : k.metrics) CsvRow(out, subject, &m);
    if (!k.duration && k.metrics.empty()) CsvRow(out, subject, nullptr);
  }
  for (const KernelOnlyIn& k : diff.only_before) CsvRow(out, OnlyInSubject(k, true), nullptr);
  for (const KernelOnlyIn& k : diff.only_after) CsvRow(out, OnlyInSubject(k, false), nullptr);
  for (const RangeDiff& r : diff.ranges) {
    CsvRow(out,
           {"nvtx_range", "", r.name, {}, {}, "matched", r.projected.before.count,
            r.projected.after.count, r.regression},
           &r.projected);
  }
  for (const RangeOnlyIn& r : diff.ranges_only_before) CsvRow(out, RangeSubject(r, true), nullptr);
  for (const RangeOnlyIn& r : diff.ranges_only_after) CsvRow(out, RangeSubject(r, false), nullptr);
}

}  // namespace gpuscope::render

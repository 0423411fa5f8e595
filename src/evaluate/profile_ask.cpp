#include "evaluate/profile_ask.h"

#include "analysis/metrics/section_catalog.h"

namespace gpuscope::evaluate {

StatusOr<ProfileAsk> AskOfReport(const store::ReportReader& report, const std::string& chip,
                                 MetricHosts& hosts) {
  StatusOr<store::ProfileRequest> stored = store::ReadProfileRequest(report);
  if (!stored.ok()) return stored.status();
  ProfileAsk ask;
  ask.request = std::move(*stored);
  if (!ask.request.present) {
    StatusOr<std::vector<const analysis::metrics::Section*>> basic =
        analysis::metrics::SectionsOfSet("basic");
    if (!basic.ok()) return basic.status();
    for (const analysis::metrics::Section* section : *basic) {
      ask.request.sections.push_back(section->identifier);
    }
  }
  StatusOr<std::vector<const analysis::metrics::Section*>> sections =
      analysis::metrics::FindSections(ask.request.sections);
  if (!sections.ok()) return sections.status();
  StatusOr<cupti::host::MetricHost*> host = hosts.For(chip);
  if (!host.ok()) return host.status();
  cupti::host::MetricHost& catalog = **host;
  ask.metric_names = analysis::metrics::MetricsToCollect(
      *sections, ask.request.metrics,
      [&catalog](std::string_view name) { return catalog.CheckMetric(name).ok(); });
  return ask;
}

}  // namespace gpuscope::evaluate

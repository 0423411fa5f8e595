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
    StatusOr<std::vector<const analysis::Section*>> basic = analysis::SectionsOfSet("basic");
    if (!basic.ok()) return basic.status();
    for (const analysis::Section* section : *basic) {
      ask.request.sections.push_back(section->identifier);
    }
  }
  StatusOr<std::vector<const analysis::Section*>> sections =
      analysis::FindSections(ask.request.sections);
  if (!sections.ok()) return sections.status();
  StatusOr<metric_host::MetricHost*> host = hosts.For(chip);
  if (!host.ok()) return host.status();
  metric_host::MetricHost& catalog = **host;
  ask.metric_names = analysis::MetricsToCollect(
      *sections, ask.request.metrics,
      [&catalog](std::string_view name) { return catalog.CheckMetric(name).ok(); });
  return ask;
}

}  // namespace gpuscope::evaluate

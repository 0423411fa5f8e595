#include "cli/profile_request.h"

#include "inject/cupti/host/device_chip.h"

namespace gpuscope::cli {

StatusOr<std::string> ChooseChip(const ProfileOptions& options) {
  if (options.chip) return *options.chip;
  return metric_host::DetectChip(0);
}

StatusOr<ProfileRequestPlan> PlanProfile(const ProfileOptions& options) {
  ProfileRequestPlan plan;
  std::optional<std::string_view> set;
  if (options.set) set = *options.set;
  // Only --metrics: ncu collects just those (no default set).
  if (!options.set && options.sections.empty() && !options.metrics.empty()) {
    plan.sections = {};
  } else {
    StatusOr<std::vector<const analysis::Section*>> sections =
        analysis::SelectSections(set, options.sections);
    if (!sections.ok()) return sections.status();
    plan.sections = *sections;
  }
  for (const analysis::Section* section : plan.sections) {
    plan.section_ids.push_back(section->identifier);
  }
  plan.extra_metrics = options.metrics;

  StatusOr<std::string> chip = ChooseChip(options);
  if (!chip.ok()) {
    plan.notes.push_back("cannot check metric names before the start: " +
                         chip.status().message() + " (give --chip to check them here)");
    plan.metrics = analysis::MetricsToCollect(plan.sections, plan.extra_metrics);
    return plan;
  }
  StatusOr<std::unique_ptr<metric_host::MetricHost>> host = metric_host::MetricHost::Open(*chip);
  if (!host.ok()) return host.status();
  plan.chip = (*host)->chip();
  for (const std::string& name : plan.extra_metrics) {
    Status valid = (*host)->CheckMetric(name);
    if (!valid.ok()) return valid;
  }
  metric_host::MetricHost& catalog = **host;
  plan.metrics = analysis::MetricsToCollect(
      plan.sections, plan.extra_metrics,
      [&catalog](std::string_view name) { return catalog.CheckMetric(name).ok(); });
  Status all_valid = catalog.CheckMetrics(plan.metrics);
  if (!all_valid.ok()) {
    return Status::Error("a section asks for a metric " + plan.chip +
                         " does not have: " + all_valid.message());
  }
  StatusOr<std::uint32_t> passes = catalog.CountPasses(plan.metrics);
  if (!passes.ok()) return passes.status();
  plan.passes = *passes;
  return plan;
}

}  // namespace gpuscope::cli

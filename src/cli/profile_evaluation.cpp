#include "cli/profile_evaluation.h"

#include <map>
#include <memory>

#include "analysis/metrics/section_catalog.h"
#include "analysis/profile_loader.h"
#include "analysis/rules/rule_registry.h"
#include "cupti/host/metric_host.h"
#include "store/report_reader.h"

namespace gpuscope::cli {

StatusOr<std::vector<std::string>> MetricsOfRequest(const store::ProfileRequest& request,
                                                    const std::string& chip) {
  StatusOr<std::vector<const analysis::Section*>> sections =
      analysis::FindSections(request.sections);
  if (!sections.ok()) return sections.status();
  StatusOr<std::unique_ptr<metric_host::MetricHost>> host = metric_host::MetricHost::Open(chip);
  if (!host.ok()) return host.status();
  metric_host::MetricHost& catalog = **host;
  return analysis::MetricsToCollect(*sections, request.metrics, [&catalog](std::string_view name) {
    return catalog.CheckMetric(name).ok();
  });
}

// The guided-analysis findings of every measured kernel, from the metrics just stored.
Status StoreFindings(const std::string& path) {
  std::map<std::int64_t, std::vector<store::StoredFinding>> stored;
  {
    StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
    if (!report.ok()) return report.status();
    StatusOr<std::vector<analysis::KernelProfile>> kernels = analysis::LoadKernelProfiles(**report);
    if (!kernels.ok()) return kernels.status();
    for (const analysis::KernelProfile& kernel : *kernels) {
      if (!kernel.measured) continue;
      std::vector<store::StoredFinding>& list = stored[kernel.id];
      for (const analysis::Finding& finding : analysis::rules::RunKernelRules(kernel)) {
        store::StoredFinding f;
        f.rule_id = finding.rule_id;
        f.severity = std::string(analysis::SeverityName(finding.severity));
        f.section = finding.section;
        f.title = finding.title;
        f.message = finding.message;
        f.speedup_pct = finding.speedup_pct;
        f.speedup_formula = finding.speedup_formula;
        list.push_back(std::move(f));
      }
    }
  }
  if (stored.empty()) return Status();
  return store::WriteKernelFindings(path, stored);
}

StatusOr<EvaluationSummary> EvaluateReport(const std::string& path,
                                           const std::vector<std::string>& metric_names,
                                           const store::ProfileRequest& request) {
  EvaluationSummary summary;
  std::map<std::int64_t, std::vector<store::StoredMetric>> values;
  {
    StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
    if (!report.ok()) return report.status();
    StatusOr<std::vector<store::StoredProfile>> profiles = store::ReadProfiledKernels(**report);
    if (!profiles.ok()) return profiles.status();
    std::map<std::string, std::unique_ptr<metric_host::MetricHost>> hosts;  // by chip
    for (const store::StoredProfile& profile : *profiles) {
      if (profile.outcome != model::ProfileOutcome::kMeasured || profile.counter_data_size == 0) {
        continue;
      }
      ++summary.kernels;
      auto fail = [&](const std::string& why) {
        ++summary.failed;
        summary.problems.push_back("kernel " + std::to_string(profile.profile_index) + " (" +
                                   profile.demangled_name + "): " + why);
      };
      std::unique_ptr<metric_host::MetricHost>& host = hosts[profile.chip];
      if (!host) {
        StatusOr<std::unique_ptr<metric_host::MetricHost>> opened =
            metric_host::MetricHost::Open(profile.chip);
        if (!opened.ok()) {
          fail(opened.status().message());
          continue;
        }
        host = std::move(*opened);
      }
      StatusOr<std::vector<std::uint8_t>> image = store::ReadCounterData(**report, profile.id);
      if (!image.ok()) {
        fail(image.status().message());
        continue;
      }
      StatusOr<std::vector<std::optional<double>>> evaluated =
          host->Evaluate(*image, 0, metric_names);
      if (!evaluated.ok()) {
        fail(evaluated.status().message());
        continue;
      }
      std::vector<store::StoredMetric>& stored = values[profile.id];
      for (std::size_t i = 0; i < metric_names.size(); ++i) {
        store::StoredMetric metric;
        metric.name = metric_names[i];
        metric.value = (*evaluated)[i];
        metric.unit = host->Describe(metric_names[i]).unit;
        stored.push_back(std::move(metric));
      }
    }
  }  // the reader is closed before the file is written
  Status written = store::WriteKernelMetrics(path, values, request);
  if (!written.ok()) return written;
  GPUSCOPE_RETURN_IF_ERROR(StoreFindings(path));
  return summary;
}

}  // namespace gpuscope::cli

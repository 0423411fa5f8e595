#include "cli/reports/profile_output.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "analysis/collection_warnings.h"
#include "analysis/metrics/profile_loader.h"
#include "analysis/metrics/profile_selection.h"
#include "analysis/metrics/section_catalog.h"
#include "analysis/source/source_view.h"
#include "analysis/value_range.h"
#include "render/details_format.h"
#include "render/escaping.h"
#include "render/kernel_summary.h"
#include "render/metrics_csv.h"
#include "store/profile_store.h"
#include "store/report_reader.h"

namespace gpuscope::cli {
namespace {

struct LoadedReport {
  std::vector<analysis::metrics::KernelProfile> kernels;
  store::ProfileRequest request;
  std::map<std::string, std::string> units;  // metric -> base unit
  std::string process_line;                  // "[pid] command line"
  // profiled_kernels.id -> its source page, for the findings to name their lines.
  std::map<std::int64_t, analysis::source::KernelSource> sources;
  // Source counter values the findings' lines leave out (analysis/value_range.h).
  analysis::ImpossibleValueCounts impossible_source_values;
  // Names the reader shortened (analysis::ShortenedTextWarning), said after the pages.
  std::optional<std::string> shortened;
};

StatusOr<LoadedReport> Load(const std::string& path) {
  StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
  if (!report.ok()) return report.status();
  LoadedReport loaded;
  StatusOr<std::vector<analysis::metrics::KernelProfile>> kernels =
      analysis::metrics::LoadKernelProfiles(**report);
  if (!kernels.ok()) return kernels.status();
  StatusOr<store::ProfileRequest> request = store::ReadProfileRequest(**report);
  if (!request.ok()) return request.status();
  loaded.kernels = std::move(*kernels);
  loaded.request = std::move(*request);
  StatusOr<std::map<std::int64_t, std::vector<store::StoredMetric>>> metrics =
      store::ReadKernelMetrics(**report);
  if (!metrics.ok()) return metrics.status();
  for (const auto& [id, values] : *metrics) {
    for (const store::StoredMetric& metric : values) loaded.units[metric.name] = metric.unit;
  }
  // Source data that cannot be read costs only the places in the findings.
  if (auto sources =
          analysis::source::LoadKernelSources(**report, nullptr, &loaded.impossible_source_values);
      sources.ok()) {
    loaded.sources = std::move(*sources);
  }
  loaded.process_line =
      "[" + std::to_string((*report)->process().pid) + "] " +
      render::TerminalText((*report)->process().command_line);
  loaded.shortened = analysis::ShortenedTextWarning(**report);
  return loaded;
}

// --section and --metrics narrow what a report recorded; a name it did not record is an error
// (nothing asked for is silently left out).
Status ChooseSectionsAndMetrics(const std::string& path, const ProfileOutputOptions& options,
                                LoadedReport& report) {
  if (report.kernels.empty()) return {};
  if (!options.sections.empty()) {
    StatusOr<std::vector<const analysis::metrics::Section*>> asked =
        analysis::metrics::FindSections(options.sections);
    if (!asked.ok()) return asked.status();
    StatusOr<std::vector<const analysis::metrics::Section*>> recorded =
        analysis::metrics::FindSections(report.request.sections);
    if (!recorded.ok()) return recorded.status();
    for (const analysis::metrics::Section* section : *asked) {
      if (std::find(recorded->begin(), recorded->end(), section) != recorded->end()) continue;
      std::string list;
      for (const analysis::metrics::Section* r : *recorded) {
        list += (list.empty() ? "" : ", ") + r->identifier;
      }
      return Status::Error(path + " has no section '" + section->identifier +
                           "': it was not collected (collected: " + list + ")");
    }
    report.request.sections.clear();
    for (const analysis::metrics::Section* section : *asked) {
      report.request.sections.push_back(section->identifier);
    }
    report.request.metrics.clear();
  }
  if (!options.metrics.empty()) {
    for (const std::string& metric : options.metrics) {
      if (report.units.count(metric) != 0) continue;
      return Status::Error(path + " has no metric '" + metric +
                           "': it was not collected (stats --page raw lists the collected ones)");
    }
    if (options.sections.empty()) report.request.sections.clear();
    report.request.metrics = options.metrics;
    std::map<std::string, std::string> units;
    for (const std::string& metric : options.metrics) units[metric] = report.units[metric];
    report.units = std::move(units);
    // The raw page prints every metric a kernel has: keep only these. (The details page
    // prints the sections chosen above, which read the metrics they name.)
    for (auto& kernel : report.kernels) {
      if (options.page != ProfilePage::kRaw) break;
      std::map<std::string, double> kept;
      for (const std::string& metric : options.metrics) {
        if (auto it = kernel.metrics.find(metric); it != kernel.metrics.end()) kept.insert(*it);
      }
      kernel.metrics = std::move(kept);
    }
  }
  return {};
}

}  // namespace

Status CheckProfileOutputOptions(const ProfileOutputOptions& options) {
  if (options.summary != ProfileSummary::kPerKernel) return {};
  if (options.page == ProfilePage::kRaw) {
    return Status::Error("--print-summary per-kernel summarises the details page, not --page raw");
  }
  return {};
}

StatusOr<ProfileOutputResult> PrintProfiles(std::ostream& out,
                                            const std::vector<std::string>& report_paths,
                                            const ProfileOutputOptions& options) {
  ProfileOutputResult result;
  std::vector<LoadedReport> reports;
  std::set<std::string> names;
  for (const std::string& path : report_paths) {
    StatusOr<LoadedReport> loaded = Load(path);
    if (!loaded.ok()) return loaded.status();
    result.profiled += loaded->kernels.size();
    for (const auto& kernel : loaded->kernels) names.insert(kernel.function_name);
    loaded->kernels = analysis::metrics::SelectProfiledKernels(loaded->kernels, options.filter);
    result.selected += loaded->kernels.size();
    if (std::optional<std::string> impossible =
            analysis::metrics::ImpossibleValueWarning(loaded->kernels)) {
      result.warnings.push_back(path + ": " + *impossible);
    }
    if (std::optional<std::string> impossible = analysis::ImpossibleValueWarning(
            loaded->impossible_source_values, analysis::CheckedValues::kSourceCounters)) {
      result.warnings.push_back(path + ": " + *impossible);
    }
    if (loaded->shortened) result.warnings.push_back(path + ": " + *loaded->shortened);
    GPUSCOPE_RETURN_IF_ERROR(ChooseSectionsAndMetrics(path, options, *loaded));
    reports.push_back(std::move(*loaded));
  }
  result.profiled_names.assign(names.begin(), names.end());
  // CSV: one table for all processes, so one header.
  std::vector<analysis::metrics::KernelProfile> all;
  std::map<std::string, std::string> units;
  std::vector<const analysis::metrics::Section*> csv_sections;
  bool csv_sections_known = false;
  for (LoadedReport& report : reports) {
    if (report.kernels.empty()) continue;
    StatusOr<std::vector<const analysis::metrics::Section*>> sections =
        analysis::metrics::FindSections(report.request.sections);
    if (!sections.ok()) return sections.status();
    std::vector<const analysis::metrics::Section*> printed = *sections;
    analysis::metrics::Section extra;
    if (!report.request.metrics.empty()) {
      extra = analysis::metrics::CommandLineMetricsSection(report.request.metrics);
      printed.push_back(&extra);
    }
    if (options.csv) {
      all.insert(all.end(), report.kernels.begin(), report.kernels.end());
      units.insert(report.units.begin(), report.units.end());
      if (!csv_sections_known) {
        csv_sections = *sections;
        csv_sections_known = true;
      }
      continue;
    }
    out << report.process_line << '\n';
    if (!report.request.replay.empty()) out << "  Replay: " << report.request.replay << '\n';
    if (options.page == ProfilePage::kRaw) {
      render::PrintRawPage(out, report.kernels, report.units);
    } else if (options.summary == ProfileSummary::kPerKernel) {
      render::PrintKernelSummary(out, report.kernels, printed);
    } else {
      render::DetailsOptions details;
      details.sources = &report.sources;
      render::PrintDetailsPage(out, report.kernels, printed, details);
    }
  }
  if (options.csv) {
    // The extra metrics of the first report (all processes of one run share them).
    analysis::metrics::Section extra;
    std::vector<const analysis::metrics::Section*> printed = csv_sections;
    for (const LoadedReport& report : reports) {
      if (report.kernels.empty() || report.request.metrics.empty()) continue;
      extra = analysis::metrics::CommandLineMetricsSection(report.request.metrics);
      printed.push_back(&extra);
      break;
    }
    if (options.page == ProfilePage::kRaw) {
      render::WriteRawCsv(out, all, units);
    } else if (options.summary == ProfileSummary::kPerKernel) {
      render::WriteKernelSummaryCsv(out, all, printed);
    } else {
      render::WriteDetailsCsv(out, all, printed);
    }
  }
  return result;
}

}  // namespace gpuscope::cli

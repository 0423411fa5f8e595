#include "viewer/report_profiles.h"

#include <algorithm>
#include <optional>

#include "analysis/metrics/profile_loader.h"
#include "analysis/value_range.h"
#include "render/escaping.h"
#include "store/profile_store.h"
#include "viewer/kernel_profile_json.h"
#include "viewer/kernel_source_json.h"

namespace gpuscope::viewer {
namespace {

constexpr const char* kEmptyFields =
    ",\"sections\":[],\"findings\":[],\"roofline\":null,\"occupancy\":null";

bool HasRows(const analysis::source::KernelSource* source) {
  return source != nullptr && !source->instructions.empty();
}

bool IsKernel(const analysis::metrics::KernelProfile& profile, std::string_view name,
              std::string_view mangled) {
  return profile.demangled_name == name || (!mangled.empty() && profile.mangled_name == mangled);
}

}  // namespace

StatusOr<std::unique_ptr<ReportProfiles>> ReportProfiles::Load(const store::ReportReader& report) {
  std::unique_ptr<ReportProfiles> profiles(new ReportProfiles());
  StatusOr<std::vector<analysis::metrics::KernelProfile>> kernels =
      analysis::metrics::LoadKernelProfiles(report);
  if (!kernels.ok()) return kernels.status();
  profiles->kernels_ = std::move(*kernels);
  if (profiles->kernels_.empty()) return profiles;
  // Source data that cannot be read costs only the places in the findings.
  if (auto sources = analysis::source::LoadKernelSources(report, nullptr,
                                                         &profiles->impossible_source_values_);
      sources.ok()) {
    profiles->sources_ = std::move(*sources);
  }

  StatusOr<store::ProfileRequest> request = store::ReadProfileRequest(report);
  if (!request.ok()) return request.status();
  if (!request->present) {
    StatusOr<std::vector<const analysis::metrics::Section*>> basic =
        analysis::metrics::SelectSections(std::nullopt, {});
    if (!basic.ok()) return basic.status();
    profiles->sections_ = std::move(*basic);
  }
  for (const std::string& id : request->sections) {
    // A section this build does not know (a report from a newer gpuscope) is left out rather
    // than costing the page the sections it does know.
    StatusOr<const analysis::metrics::Section*> section = analysis::metrics::FindSection(id);
    if (section.ok()) profiles->sections_.push_back(*section);
  }
  if (!request->metrics.empty()) {
    profiles->command_line_metrics_ = std::make_unique<analysis::metrics::Section>(
        analysis::metrics::CommandLineMetricsSection(request->metrics));
    profiles->sections_.push_back(profiles->command_line_metrics_.get());
  }
  return profiles;
}

bool ReportProfiles::HasMetrics() const {
  for (const analysis::metrics::KernelProfile& kernel : kernels_) {
    if (kernel.measured && !kernel.metrics.empty()) return true;
  }
  return false;
}

std::vector<std::string> ReportProfiles::ImpossibleValueWarnings() const {
  std::vector<std::string> warnings;
  if (std::optional<std::string> metrics = analysis::metrics::ImpossibleValueWarning(kernels_)) {
    warnings.push_back(std::move(*metrics));
  }
  if (std::optional<std::string> source = analysis::ImpossibleValueWarning(
          impossible_source_values_, analysis::CheckedValues::kSourceCounters)) {
    warnings.push_back(std::move(*source));
  }
  return warnings;
}

std::vector<std::string> ReportProfiles::KernelNames() const {
  std::vector<std::string> names;
  for (const analysis::metrics::KernelProfile& kernel : kernels_) {
    if (std::find(names.begin(), names.end(), kernel.demangled_name) == names.end()) {
      names.push_back(kernel.demangled_name);
    }
  }
  return names;
}

const analysis::metrics::KernelProfile* ReportProfiles::ShownLaunch(
    std::string_view name, std::string_view mangled) const {
  for (const analysis::metrics::KernelProfile& kernel : kernels_) {
    if (IsKernel(kernel, name, mangled) && kernel.measured && !kernel.metrics.empty()) {
      return &kernel;
    }
  }
  return nullptr;
}

const analysis::source::KernelSource* ReportProfiles::SourceOf(
    const analysis::metrics::KernelProfile& kernel) const {
  const auto found = sources_.find(kernel.id);
  return found != sources_.end() ? &found->second : nullptr;
}

const analysis::source::KernelSource* ReportProfiles::ShownSource(std::string_view name,
                                                                  std::string_view mangled) const {
  const analysis::source::KernelSource* first = nullptr;
  bool profiled = false;
  for (const analysis::metrics::KernelProfile& kernel : kernels_) {
    if (!IsKernel(kernel, name, mangled)) continue;
    const analysis::source::KernelSource* source = SourceOf(kernel);
    if (HasRows(source)) return source;
    if (!profiled) first = source;
    profiled = true;
  }
  return first;
}

std::string ReportProfiles::KernelFindingsJson() const {
  std::string out = "[";
  bool first = true;
  for (const std::string& name : KernelNames()) {
    const analysis::metrics::KernelProfile* shown = ShownLaunch(name, {});
    if (shown == nullptr) continue;
    std::string findings = FindingsJson(*shown, SourceOf(*shown));
    if (findings == "[]") continue;
    out += (first ? "{\"kernel\":" : ",{\"kernel\":") + render::JsonString(name) +
           ",\"findings\":" + findings + "}";
    first = false;
  }
  return out + "]";
}

std::string ReportProfiles::KernelFieldsJson(std::string_view name,
                                             std::string_view mangled) const {
  std::size_t profiled = 0;
  const analysis::metrics::KernelProfile* first = nullptr;
  for (const analysis::metrics::KernelProfile& kernel : kernels_) {
    if (!IsKernel(kernel, name, mangled)) continue;
    ++profiled;
    if (first == nullptr) first = &kernel;
  }
  const analysis::metrics::KernelProfile* shown = ShownLaunch(name, mangled);
  std::string count = ",\"profiled\":" + std::to_string(profiled) +
                      ",\"source\":" + KernelSourceJson(ShownSource(name, mangled));
  // A range of the program (--replay-mode app-range): the page names it as one, with the
  // launches it held.
  if (first != nullptr && first->is_range) {
    count += ",\"range_kernels\":" + std::to_string(first->range_kernels);
  }
  if (shown == nullptr) {
    if (first == nullptr) return kEmptyFields + count;
    // Profiled, but nothing to show: say why instead of an empty page.
    std::string note;
    if (!first->measured) {
      note = first->failure.empty() ? "the profiled launch was not measured" : first->failure;
    } else {
      // The counter data is in the report but was never evaluated: `view` and `report` run
      // evaluate/ on each report first, so this one could not be written (read-only).
      note =
          "the metrics were not evaluated yet: `gpuscope stats --page details <report>` "
          "evaluates and stores them";
    }
    return kEmptyFields + count + ",\"profile_note\":" + render::JsonString(note);
  }
  return ",\"sections\":" + SectionsJson(*shown, sections_) +
         ",\"findings\":" + FindingsJson(*shown, SourceOf(*shown)) +
         ",\"roofline\":" + RooflineJson(*shown) + ",\"occupancy\":" + OccupancyJson(*shown) +
         count + ",\"profile_index\":" + std::to_string(shown->profile_index) +
         ",\"invocation\":" + std::to_string(shown->invocation);
}

}  // namespace gpuscope::viewer

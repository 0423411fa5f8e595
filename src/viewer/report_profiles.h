// What `gpuscope profile` recorded in one report, loaded once for the viewer's kernel pages:
// the profiled launches (analysis::metrics::LoadKernelProfiles) and the sections the profile asked
// for (store::ReadProfileRequest; a report that does not say gets Nsight Compute's basic
// set, as `gpuscope stats --page details` does), plus `--metrics` as their own section.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "analysis/metrics/section_catalog.h"
#include "analysis/source/source_view.h"
#include "analysis/value_range.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::viewer {

class ReportProfiles {
 public:
  // A report without profile tables (one `gpuscope run` wrote) loads as no profiles.
  static StatusOr<std::unique_ptr<ReportProfiles>> Load(const store::ReportReader& report);

  // Whether some launch was measured and its metrics evaluated (/api/reports' has_metrics).
  bool HasMetrics() const;

  // How many stored metric values and source counter values the kernel pages leave out as
  // impossible and why (analysis/value_range.h), for the report's warnings: one line for
  // each kind that has any.
  std::vector<std::string> ImpossibleValueWarnings() const;

  // The (demangled) names of the profiled kernels, each once, in profile order. Their
  // replayed launches have no timestamps, so no summary table or timeline leads to their
  // kernel pages: /api/reports lists them for the page to link.
  std::vector<std::string> KernelNames() const;

  // The profile fields of the kernel page of the kernel with this demangled name (or, for a
  // name the demangler left alone, this mangled name), each with its leading comma:
  // ,"sections":[...],"findings":[...],"roofline":...,"occupancy":...,"profiled":N,
  // "source":{...} (kernel_source_json.h: the Source tab, or why it has nothing)
  // and, when profiled launches exist but none can be shown, ,"profile_note":"<why>".
  // From the first launch that was measured (the others only count in "profiled"); a kernel
  // that was not profiled gets the empty fields.
  std::string KernelFieldsJson(std::string_view name, std::string_view mangled) const;

  // The kernel rules' findings of every profiled kernel that has some, from the launch its
  // page shows, in profile order: [{"kernel":"<name>","findings":[<as the page's>]}].
  std::string KernelFindingsJson() const;

 private:
  ReportProfiles() = default;
  // The first measured launch of the kernel with metrics (the one its page shows), or null.
  const analysis::metrics::KernelProfile* ShownLaunch(std::string_view name,
                                                      std::string_view mangled) const;
  // The source page the kernel's Source tab shows: of its first profiled launch with source
  // rows, else of its first profiled launch (which says why it has none); null: not profiled.
  const analysis::source::KernelSource* ShownSource(std::string_view name,
                                                    std::string_view mangled) const;
  // The source page of `kernel`, or null (for the findings to name their lines).
  const analysis::source::KernelSource* SourceOf(
      const analysis::metrics::KernelProfile& kernel) const;
  std::vector<analysis::metrics::KernelProfile> kernels_;
  std::map<std::int64_t, analysis::source::KernelSource> sources_;  // profiled_kernels.id ->
  analysis::ImpossibleValueCounts impossible_source_values_;        // left out of sources_
  std::vector<const analysis::metrics::Section*> sections_;
  // `--metrics a,b` as a last section; owned here because sections_ points at it.
  std::unique_ptr<analysis::metrics::Section> command_line_metrics_;
};

}  // namespace gpuscope::viewer

#include "cli/reports/source_output.h"

#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "analysis/metrics/profile_loader.h"
#include "analysis/metrics/profile_selection.h"
#include "analysis/source/source_summary.h"
#include "analysis/source/source_view.h"
#include "analysis/value_range.h"
#include "cli/output/command_error.h"
#include "cli/output/exit_codes.h"
#include "cli/reports/report_preparation.h"
#include "render/escaping.h"
#include "store/report_reader.h"

namespace gpuscope::cli {

StatusOr<render::SourcePrint> ParsePrintSource(std::string_view value) {
  if (value == "sass") return render::SourcePrint::kSass;
  if (value == "cuda") return render::SourcePrint::kCuda;
  if (value == "cuda,sass" || value == "sass,cuda") return render::SourcePrint::kCudaSass;
  return Status::Error("option '--print-source' expects sass, cuda or cuda,sass, not '" +
                       std::string(value) + "'");
}

StatusOr<std::size_t> ParseSortColumn(std::string_view value) {
  if (std::optional<std::size_t> column = analysis::source::FindSourceColumn(value)) return *column;
  return Status::Error(
      "option '--sort' expects a column of the source page (e.g. \"Instructions "
      "Executed\", stall_long_sb), not '" +
      std::string(value) + "'");
}

int PrintSourcePages(const SourceOutputOptions& options) {
  StatusOr<KernelFilterSpec> filter = ToKernelFilterSpec(options.filter);
  if (!filter.ok()) {
    CommandError(filter.status().message());
    return kExitUsage;
  }
  // Everything is read before anything is printed: one bad report, one error line.
  std::ostringstream page;
  if (options.csv) render::WriteSourcePageCsvHeader(page);
  std::size_t profiled = 0, selected = 0;
  std::vector<std::string> profiled_names;
  bool lines_missing = false;
  std::vector<std::string> not_stored;  // the reports that could not take the SASS and lines
  for (const std::string& path : options.report_paths) {
    StatusOr<evaluate::EvaluationSummary> evaluated = EvaluateBeforeReading(path);
    if (!evaluated.ok()) {
      CommandError(evaluated.status().message());
      return kExitGpuscopeFailure;
    }
    if (!evaluated->not_stored.empty()) not_stored.push_back(evaluated->not_stored);
    StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
    if (!reader.ok()) {
      CommandError(NamingPath(reader.status().message(), path));
      return kExitGpuscopeFailure;
    }
    StatusOr<std::vector<analysis::metrics::KernelProfile>> kernels =
        analysis::metrics::LoadKernelProfiles(**reader);
    if (!kernels.ok()) {
      CommandError(NamingPath(kernels.status().message(), path));
      return kExitGpuscopeFailure;
    }
    analysis::ImpossibleValueCounts impossible;
    StatusOr<std::map<std::int64_t, analysis::source::KernelSource>> sources =
        analysis::source::LoadKernelSources(**reader, nullptr, &impossible);
    if (!sources.ok()) {
      CommandError(NamingPath(sources.status().message(), path));
      return kExitGpuscopeFailure;
    }
    if (std::optional<std::string> warning = analysis::ImpossibleValueWarning(
            impossible, analysis::CheckedValues::kSourceCounters)) {
      not_stored.push_back(path + ": " + *warning);
    }
    profiled += kernels->size();
    for (const auto& kernel : *kernels) profiled_names.push_back(kernel.demangled_name);
    const std::vector<analysis::metrics::KernelProfile> chosen =
        analysis::metrics::SelectProfiledKernels(*kernels, *filter);
    selected += chosen.size();
    if (!options.csv && options.report_paths.size() > 1 && !chosen.empty()) {
      page << path << ":\n";
    }
    for (const analysis::metrics::KernelProfile& kernel : chosen) {
      render::SourcePageKernel shown;
      shown.profile_index = kernel.profile_index;
      shown.name = kernel.demangled_name;
      auto found = sources->find(kernel.id);
      const analysis::source::KernelSource* source =
          found != sources->end() ? &found->second : nullptr;
      if (source != nullptr && !source->instructions.empty()) {
        shown.source = source;
        lines_missing = lines_missing || !source->has_lines;
      }
      shown.no_data_reason = analysis::source::NoSourceDataReason(source);
      if (options.csv) {
        render::WriteSourcePageCsv(shown, options.page, page);
        if (shown.source == nullptr) {
          std::cerr << "gpuscope: warning: kernel " << kernel.profile_index << " ("
                    << render::TerminalText(kernel.demangled_name)
                    << ") has no source data: " << render::TerminalText(shown.no_data_reason)
                    << '\n';
        }
      } else {
        render::WriteSourcePageText(shown, options.page, page);
      }
    }
  }
  if (profiled == 0) {
    CommandError(
        "no profiled kernels in the report(s): write them with `gpuscope profile --set "
        "full` (or --section SourceCounters)");
    return kExitGpuscopeFailure;
  }
  if (selected == 0) {
    std::string names;
    for (const std::string& name : profiled_names) names += (names.empty() ? "" : ", ") + name;
    CommandError("no profiled kernel matches the filters (" + std::to_string(profiled) +
                 " profiled: " + names + ")");
    return kExitGpuscopeFailure;
  }
  std::cout << page.str();
  std::cout.flush();
  for (const std::string& why : not_stored) {
    std::cerr << "gpuscope: warning: " << render::TerminalText(why) << '\n';
  }
  if (lines_missing) std::cerr << "gpuscope: note: " << render::kNoLineInfoNote << '\n';
  return kExitOk;
}

}  // namespace gpuscope::cli

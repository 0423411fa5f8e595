#include "evaluate/report_evaluation.h"

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "analysis/metrics/profile_loader.h"
#include "analysis/source/source_view.h"
#include "evaluate/kernel_findings.h"
#include "evaluate/source_evaluation.h"
#include "store/evaluation_writer.h"
#include "store/unsaved_evaluations.h"

namespace gpuscope::evaluate {
namespace {

// A measured kernel without values: its counter data was never evaluated. (One whose values
// were all impossible was: evaluating it again gives them again.)
bool HasUnevaluatedKernel(const std::vector<analysis::metrics::KernelProfile>& kernels) {
  for (const analysis::metrics::KernelProfile& kernel : kernels) {
    if (kernel.measured && !kernel.Evaluated()) return true;
  }
  return false;
}

// The chip whose catalog decides which optional metrics a stored request collects (the last
// measured kernel's: one process profiles one kind of GPU in practice).
std::string ChipOfMeasuredKernels(const std::vector<analysis::metrics::KernelProfile>& kernels) {
  std::string chip;
  for (const analysis::metrics::KernelProfile& kernel : kernels) {
    if (kernel.measured) chip = kernel.chip;
  }
  return chip;
}

// The source pages of the report's kernels with the evaluation's SASS and lines not yet stored,
// for the findings to name their lines. A page that cannot be read costs only that: the
// findings then say what the metrics say, as without source data.
std::map<std::int64_t, analysis::source::KernelSource> SourcePages(
    const store::ReportReader& report, const store::SourceRows& pending) {
  StatusOr<std::map<std::int64_t, analysis::source::KernelSource>> pages =
      analysis::source::LoadKernelSources(report, &pending);
  if (!pages.ok()) return {};
  return std::move(*pages);
}

}  // namespace

StatusOr<EvaluationSummary> EvaluateReport(const std::string& path, const NvdisasmSearch& nvdisasm,
                                           const std::optional<ProfileAsk>& asked) {
  store::EvaluationRows rows;
  EvaluationSummary summary;
  {  // the reader is closed before the report is opened for writing
    StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
    if (!report.ok()) return report.status();
    // Evaluated before by this process, and not storable then: done, it reads as stored.
    if (!asked && (*report)->unsaved_evaluation() != nullptr) return summary;
    StatusOr<std::vector<analysis::metrics::KernelProfile>> kernels =
        analysis::metrics::LoadKernelProfiles(**report);
    if (!kernels.ok()) return kernels.status();
    StatusOr<bool> source_needed = NeedsSourceEvaluation(**report);
    if (!source_needed.ok()) return source_needed.status();
    rows.counters = asked.has_value() || HasUnevaluatedKernel(*kernels);
    if (!rows.counters && !*source_needed) return summary;
    if (*source_needed) {
      StatusOr<SourceEvaluation> source = EvaluateSource(**report, nvdisasm);
      if (!source.ok()) return source.status();
      SayNotesOnce(source->notes);
      rows.source = std::move(source->rows);
      // Counters evaluated before (a report copied from the GPU machine, read where nvdisasm
      // is): the findings are made again now that they can name their lines.
      if (!rows.counters && !rows.source.instructions.empty()) {
        rows.findings = FindingsOfMeasuredKernels(*kernels, SourcePages(**report, rows.source));
      }
    }
    if (rows.counters) {
      MetricHosts hosts;
      ProfileAsk ask;
      if (asked) {
        ask = *asked;
      } else {
        StatusOr<ProfileAsk> stored = AskOfReport(**report, ChipOfMeasuredKernels(*kernels), hosts);
        if (!stored.ok()) return stored.status();
        ask = std::move(*stored);
      }
      CounterValues values = EvaluateCounterData(**report, *kernels, ask.metric_names, hosts);
      // The rules see the new values exactly as a reader of the stored report will; a kernel
      // that failed keeps the values it had.
      for (analysis::metrics::KernelProfile& kernel : *kernels) {
        if (auto found = values.metrics.find(kernel.id); found != values.metrics.end()) {
          analysis::metrics::AssignMetrics(kernel, found->second);
        }
      }
      rows.findings = FindingsOfMeasuredKernels(*kernels, SourcePages(**report, rows.source));
      rows.metrics = std::move(values.metrics);
      rows.request = std::move(ask.request);
      summary = std::move(values.summary);
    }
  }
  if (!rows.counters && rows.source.instructions.empty()) return summary;
  // Storing is caching: a report that cannot take the results (read-only, a full disk) still
  // shows them, from memory, for the rest of this process.
  if (Status stored = store::WriteEvaluation(path, rows); !stored.ok()) {
    store::KeepUnsavedEvaluation(path, std::move(rows));
    summary.not_stored = stored.message() +
                         " (the results are shown all the same, and evaluated again at each read)";
  }
  return summary;
}

}  // namespace gpuscope::evaluate

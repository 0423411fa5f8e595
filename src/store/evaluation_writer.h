// Writes one evaluation of a report's counter data back into the report: the metric values
// (kernel_metrics), the guided-analysis findings (kernel_findings) and what was asked for
// (meta profile_sections / profile_metrics), all in one transaction on one read-write
// connection, so that a failure part-way leaves the report as it was.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "store/profile_store.h"
#include "util/status.h"

namespace gpuscope::store {

struct EvaluationRows {
  // profiled_kernels.id -> its evaluated metrics; replaces that kernel's earlier values.
  std::map<std::int64_t, std::vector<StoredMetric>> metrics;
  // profiled_kernels.id -> its findings in rank order; replaces that kernel's earlier
  // findings. Empty: kernel_findings is left alone (not even created in old reports).
  std::map<std::int64_t, std::vector<StoredFinding>> findings;
  ProfileRequest request;
};

// The report must be complete (its process ended and it was finalised). A report that
// cannot be written (a read-only file) gets "cannot store the metrics in <path>: ...".
Status WriteEvaluation(const std::string& path, const EvaluationRows& rows);

}  // namespace gpuscope::store

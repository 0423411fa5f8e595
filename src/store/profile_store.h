// The profile tables of a report (schema.sql: profiled_kernels, kernel_metrics,
// kernel_findings, and the meta rows profile_sections / profile_metrics): reading what
// `gpuscope profile` recorded and what its evaluation stored (store/evaluation_writer writes
// the evaluation). Reports of schema version 1 have no profile tables: they read as "no
// profiled kernels".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/profile_records.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::store {

struct StoredProfile {
  std::int64_t id = 0;  // profiled_kernels.id
  std::uint32_t profile_index = 0;
  std::uint32_t correlation_id = 0;
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t invocation = 0;
  std::string mangled_name;
  std::string demangled_name;
  model::Timestamp start = 0;  // absolute
  model::Timestamp end = 0;
  std::string chip;
  std::uint32_t passes = 0;
  model::ReplayMode replay_mode = model::ReplayMode::kKernel;
  model::ProfileOutcome outcome = model::ProfileOutcome::kMeasured;
  std::string message;
  std::size_t counter_data_size = 0;  // 0: no counter data
  std::uint32_t range_kernels = 0;    // a range result (model::IsRangeResult): launches inside
};

// In profile_index order.
StatusOr<std::vector<StoredProfile>> ReadProfiledKernels(const ReportReader& report);

// The uncompressed counter-data image of profiled kernel `id`.
StatusOr<std::vector<std::uint8_t>> ReadCounterData(const ReportReader& report, std::int64_t id);

struct StoredMetric {
  std::string name;
  std::optional<double> value;  // nullopt: CUPTI could not evaluate it
  std::string unit;
  // The cell holds text or a blob where a number belongs (a damaged report; SQLite would read
  // 'NaN' as 0): `value` is nullopt, and the readers count it as impossible.
  bool not_a_number = false;
};

// profiled_kernels.id -> its evaluated metrics, by name.
StatusOr<std::map<std::int64_t, std::vector<StoredMetric>>> ReadKernelMetrics(
    const ReportReader& report);

struct ProfileRequest {
  std::vector<std::string> sections;  // meta.profile_sections
  std::vector<std::string> metrics;   // meta.profile_metrics
  std::string replay;                 // meta.profile_replay: how launches were replayed ('' unknown)
  bool present = false;               // the report says what was requested
};
StatusOr<ProfileRequest> ReadProfileRequest(const ReportReader& report);

struct StoredFinding {
  std::string rule_id;
  std::string severity;  // "OPT", "INF", "WRN"
  std::string section;
  std::string title;
  std::string message;
  std::optional<double> speedup_pct;
  std::string speedup_formula;
};

// profiled_kernels.id -> its findings in rank order; empty for reports without the table.
StatusOr<std::map<std::int64_t, std::vector<StoredFinding>>> ReadKernelFindings(
    const ReportReader& report);

}  // namespace gpuscope::store

// The report schema (schema.sql, embedded at build time) and the constants that identify
// a gpuscope report: readers check them before trusting anything else in a file.
#pragma once

#include <cstdint>
#include <string_view>

namespace gpuscope::store {

// Raised whenever a table or column changes meaning; schema.sql sets PRAGMA user_version
// and meta.schema_version to the same number (a test checks that they agree).
inline constexpr int kSchemaVersion = 4;
// The oldest version this gpuscope still reads (version 1: no profile tables; version 2: no
// rank identity in `process`, no `clock_samples`; version 3: no trace scope, no
// `api_call_counts`, no `graph_launches`, no call stacks).
inline constexpr int kOldestReadableSchemaVersion = 1;
// The first version whose process row names its rank and boot and whose report has
// clock_samples; older reports read as "rank unknown, no clock samples".
inline constexpr int kFirstSchemaWithRanks = 3;
// The first version that records what was traced and how (meta.trace, api_capture,
// cuda_graph_trace) with api_call_counts and graph_launches; older reports read as
// "everything traced, API calls as activity records, graphs per node".
inline constexpr int kFirstSchemaWithTraceScope = 4;
// The first version with call stacks (`stack_frames`, `modules`, api_calls.stack_id); older
// reports read as "no stacks".
inline constexpr int kFirstSchemaWithStacks = 4;  // the same version as the trace scope

// PRAGMA application_id of every report: "GPSC".
inline constexpr std::int32_t kApplicationId = 0x47505343;

// meta.format of every report.
inline constexpr std::string_view kReportFormat = "gpuscope-report";

// The text of schema.sql: the statements that create an empty report.
std::string_view SchemaSql();

}  // namespace gpuscope::store

// Every table of a report, in the order a new report creates them: THE list of the report's
// tables. A new table is declared in the *_table_defs.h of its family (event_table_defs.h for
// one row per recorded activity) and listed here; its CREATE statement, the readers' schema
// checks, the Python package's column lists (tests/python/print_event_tables.cpp) and the
// documentation's table list (tests/store/table_declarations_test.cpp) then follow.
#pragma once

#include <array>

#include "store/event_tables.h"
#include "store/gpu_metric_table_defs.h"
#include "store/lookup_table_defs.h"
#include "store/profile_table_defs.h"
#include "store/run_table_defs.h"
#include "store/source_table_defs.h"
#include "store/stack_table_defs.h"
#include "store/table_info.h"

namespace gpuscope::store {

inline constexpr std::array kReportTables = {
    kMetaTable,
    kProcessTable,
    kClockSamplesTable,
    kGpuMetricsTable,
    kGpuMetricSamplesTable,
    kGpuMetricSamplingTable,
    kDevicesTable,
    kContextsTable,
    kStreamsTable,
    kStringsTable,
    kApiCallCountsTable,
    kGraphLaunchesTable,
    AsTableInfo(kEventTables[kEventTableIndex<Kernels>]),
    AsTableInfo(kEventTables[kEventTableIndex<Memcpys>]),
    AsTableInfo(kEventTables[kEventTableIndex<Memsets>]),
    AsTableInfo(kEventTables[kEventTableIndex<Memory>]),
    AsTableInfo(kEventTables[kEventTableIndex<Syncs>]),
    AsTableInfo(kEventTables[kEventTableIndex<ApiCalls>]),
    AsTableInfo(kEventTables[kEventTableIndex<Nvtx>]),
    AsTableInfo(kEventTables[kEventTableIndex<Overheads>]),
    kCountersTable,
    kProfiledKernelsTable,
    kKernelMetricsTable,
    kInstructionValuesTable,
    kProfiledRangesTable,
    kKernelSourceTable,
    kCubinsTable,
    kSassInstructionsTable,
    kSourceFilesTable,
    kKernelFindingsTable,
    kStackFramesTable,
    kModulesTable,
    kRowOrderTable,
    kReplayModesTable,
    kProfileOutcomesTable,
    kApiDomainsTable,
    kCopyKindsTable,
    kMemoryKindsTable,
    kMemoryOpsTable,
    kSyncKindsTable,
    kNvtxKindsTable,
    kFrameKindsTable,
};

namespace internal {
constexpr bool ListsEveryEventTable() {
  for (const EventTableInfo& event_table : kEventTables) {
    bool listed = false;
    for (const TableInfo& table : kReportTables) listed = listed || table.name == event_table.name;
    if (!listed) return false;
  }
  return true;
}
}  // namespace internal
static_assert(internal::ListsEveryEventTable(), "an event table is missing from kReportTables");

}  // namespace gpuscope::store

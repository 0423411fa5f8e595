// Whole rows of a report's tables as columns and values, names resolved and times absolute
// (the schema's *_v views): what `gpuscope export --format csv` writes, and the details the
// viewer shows for one event.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/event_tables.h"
#include "store/report_reader.h"
#include "store/table_row.h"
#include "util/status.h"

namespace gpuscope::store {

// kernels, memcpys, memsets, api_calls, nvtx, memory, syncs, overheads, devices,
// kernel_metrics, kernel_findings: the tables ForEachExportedRow reads, in this order.
const std::vector<std::string>& ExportedTableNames();

// Streams every row of `table` (one of ExportedTableNames()) in time order (devices: by id),
// until `row` returns false. `columns` is called first with the view's column names, also
// for a table without rows.
Status ForEachExportedRow(const ReportReader& report, std::string_view table,
                          const std::function<void(std::span<const std::string>)>& columns,
                          const std::function<bool(const TableRow&)>& row);

// The row of `table` whose id is `id`, with the columns ForEachExportedRow gives, passed to
// `row`; false when there is none.
StatusOr<bool> ReadEventRow(const ReportReader& report, EventTable table, std::uint32_t id,
                            const std::function<void(const TableRow&)>& row);

}  // namespace gpuscope::store

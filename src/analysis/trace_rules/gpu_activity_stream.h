// Kernels, copies and memsets of a report as one stream in start order.
//
// The reader streams each table in start order, but only one table per call. Merging three
// streams without holding a table in memory takes three cursors at once: copies and memsets
// are read by two more readers of the same file on their own threads (a reader is used by
// one thread at a time), each through a small bounded queue, while this thread reads the
// kernels and merges. Memory stays bounded by the queues whatever the report's size.
#pragma once

#include <functional>

#include "analysis/gpu_activity.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis::trace_rules {

// Calls `fn` for every timed kernel, copy and memset in start order (on equal starts:
// kernels, then copies, then memsets). Rows without timestamps are skipped: the report's
// collection warnings count them already.
Status ForEachGpuActivity(const store::ReportReader& reader,
                          const std::function<void(const GpuActivity&)>& fn);

}  // namespace gpuscope::analysis::trace_rules

// What the readers of a kernel's source page share beyond its rows: the kernel's total per
// column (what a line's share is taken of), the columns it has values in, the stall reasons of
// one row most samples first, the file name a line is known by across machines, and the one
// line that says why a kernel has no source page. Used by `gpuscope source`, the viewer's Source
// tab and `gpuscope diff`, so the three say the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/source/source_columns.h"
#include "analysis/source/source_view.h"

namespace gpuscope::analysis::source {

// Per column, the sum over the kernel's instructions (nullopt: no instruction has a value).
ColumnValues KernelTotals(const KernelSource& kernel);

// The indices of SourceColumns() some instruction of `kernel` has a value in, in page order.
std::vector<std::size_t> ColumnsWithValues(const KernelSource& kernel);

// The samples of each stall reason (kStallReason columns, issued or not) with at least one
// sample in `values`: (column index, samples), most samples first, ties in page order.
std::vector<std::pair<std::size_t, std::uint64_t>> StallReasons(const ColumnValues& values);

// "k.cu" of "/tmp/sx/k.cu": a line is known by it on another machine (the report of the
// same program built elsewhere keeps the line, not the directory).
std::string FileBaseName(const std::string& path);

// Why `source` (the kernel's source page, nullptr when the report has none for it) shows no
// rows, in one line; "" when it has rows.
std::string NoSourceDataReason(const KernelSource* source);

}  // namespace gpuscope::analysis::source

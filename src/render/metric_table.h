// Nsight Compute's metric tables on the text pages: indented four spaces, a dashed rule
// above and below the header, the first column left-aligned and the others right-aligned,
// one space between columns:
//     ----------------------- ----------- ------------
//     Metric Name             Metric Unit Metric Value
//     ----------------------- ----------- ------------
//     Memory Throughput                 %        95.46
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpuscope::render {

// Every row has as many cells as `headers`. Nothing is written for no rows. The first
// `left_aligned` columns and the last `left_aligned_tail` are left-aligned (text), the rest
// right-aligned (numbers).
void WriteMetricTable(std::ostream& out, const std::vector<std::string>& headers,
                      const std::vector<std::vector<std::string>>& rows,
                      std::size_t left_aligned = 1, std::size_t left_aligned_tail = 0);

}  // namespace gpuscope::render

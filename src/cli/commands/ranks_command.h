// `gpuscope ranks [--format column|csv|json] REPORT...`: the reports of one multi-rank job
// (one per rank, `-o rank%q{RANK}`) on one page: their clocks aligned, each rank's
// communication breakdown on the aligned axis, NCCL's kernels and API calls, and the rank
// rules' findings (straggler, imbalance, exposed communication). In-process, threads over
// the reports, each report streamed.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// 0 when printed; 2 for usage errors; 1 when a report cannot be read.
int RanksCommand(std::span<const std::string> args);

std::string RanksUsage();

}  // namespace gpuscope::cli

// A report as `gpuscope profile --set full` leaves it for the source probe's k_fp64 (recorded on
// the H100, tests/data/sass): its traced launches, the profiled launch with Nsight Compute's
// per-instruction values turned back into CUPTI's (store/testing/sass_fixtures), the cubin, and
// the evaluation's SASS and lines read by the evaluation's own code (nvdisasm through
// fake_nvdisasm.sh, the line table through CUPTI's host API) and written by the store's
// evaluation writer, with source_probe.cu's text stored as if it had been where the line table
// says. Plus a kernel profiled without source counters. For the tests of the viewer's Source tab
// and of `gpuscope diff` per line.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/profile_records.h"
#include "util/status.h"

namespace gpuscope::testing {

inline constexpr const char* kProbeKernel = "_Z6k_fp64PKfPfi";
inline constexpr const char* kProbeKernelName = "k_fp64(float const*, float*, int)";
// The kernel profiled without source counters.
inline constexpr const char* kPlainKernelName = "work()";

struct ProbeSourceReport {
  std::string path;
  // Changes ncu's recorded values before they are written (another run of the program).
  std::function<void(std::vector<model::InstructionValue>&)> edit_values = {};
  bool store_source_text = true;  // false: the file was not found where the lines say
  bool keep_lines = true;         // false: as a cubin built without -lineinfo
};

Status WriteProbeSourceReport(const ProbeSourceReport& report);

}  // namespace gpuscope::testing

// Reading metrics back with Nsight Compute's filters (`stats --page details|raw -k ... -s ...
// -c ... --kernel-id ... --devices ...`): which of a report's profiled kernels are printed.
// The filters mean what they mean when collecting (util/kernel_filter.h), applied to the
// profiled kernels in the order they were profiled; --kernel-id's invocation is the launch's
// own (the n-th launch of its name in the process, profiled or not), as recorded. -s and -c
// count per report (per process), as collection does.
#pragma once

#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "util/kernel_filter.h"

namespace gpuscope::analysis::metrics {

std::vector<KernelProfile> SelectProfiledKernels(const std::vector<KernelProfile>& kernels,
                                                 const KernelFilterSpec& filter);

}  // namespace gpuscope::analysis::metrics

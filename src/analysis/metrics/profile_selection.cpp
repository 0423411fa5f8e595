#include "analysis/metrics/profile_selection.h"

#include <algorithm>

namespace gpuscope::analysis::metrics {

std::vector<KernelProfile> SelectProfiledKernels(const std::vector<KernelProfile>& kernels,
                                                 const KernelFilterSpec& filter) {
  std::vector<const KernelProfile*> in_order;
  for (const KernelProfile& kernel : kernels) in_order.push_back(&kernel);
  std::stable_sort(in_order.begin(), in_order.end(),
                   [](const KernelProfile* a, const KernelProfile* b) {
                     return a->profile_index < b->profile_index;
                   });
  std::vector<KernelProfile> selected;
  std::uint64_t matching = 0;
  for (const KernelProfile* kernel : in_order) {
    LaunchCandidate launch;
    launch.mangled_name = kernel->mangled_name;
    launch.context_id = kernel->context_id;
    launch.stream_id = kernel->stream_id;
    launch.device_id = kernel->device_id;
    const std::string base_name = NameInBase(kernel->mangled_name, filter.name_base);
    if (!MatchesFilter(filter, base_name, launch, kernel->invocation)) continue;
    if (WithinSkipAndCount(filter, matching++)) selected.push_back(*kernel);
  }
  return selected;
}

}  // namespace gpuscope::analysis::metrics

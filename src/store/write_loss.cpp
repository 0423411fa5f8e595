#include "store/write_loss.h"

#include <algorithm>

namespace gpuscope::store {

std::string_view LossKindTable(std::size_t kind) {
  if (kind < kNumEventTables) return kEventTables[kind].name;
  switch (kind) {
    case kLossProcess:
      return "process";
    case kLossDevices:
      return "devices";
    case kLossContexts:
      return "contexts";
    case kLossStreams:
      return "streams";
    case kLossProfiledKernels:
      return "profiled_kernels";
    case kLossClockSamples:
      return "clock_samples";
    case kLossApiCallCounts:
      return "api_call_counts";
    case kLossGraphLaunches:
      return "graph_launches";
    case kLossStackFrames:
      return "stack_frames";
    case kLossModules:
      return "modules";
    case kLossGpuMetricSamples:
      return "gpu_metric_samples";
    case kLossGpuMetricRows:
      return "gpu_metrics";
    default:
      return "unknown";
  }
}

LossByTable NonZeroLosses(const std::array<std::uint64_t, kNumLossKinds>& by_kind) {
  LossByTable losses;
  for (std::size_t kind = 0; kind < kNumLossKinds; ++kind) {
    if (by_kind[kind] != 0) losses.emplace_back(std::string(LossKindTable(kind)), by_kind[kind]);
  }
  return losses;
}

void SortByKind(LossByTable& losses) {
  auto kind_of = [](const std::string& table) {
    for (std::size_t kind = 0; kind < kNumLossKinds; ++kind) {
      if (LossKindTable(kind) == table) return kind;
    }
    return kNumLossKinds;
  };
  std::stable_sort(losses.begin(), losses.end(), [&](const auto& a, const auto& b) {
    return kind_of(a.first) < kind_of(b.first);
  });
}

std::string DescribeLossByTable(const LossByTable& losses) {
  std::string text;
  for (const auto& [table, count] : losses) {
    if (!text.empty()) text += ", ";
    text += table + " " + std::to_string(count);
  }
  return text;
}

}  // namespace gpuscope::store

#include "evaluate/metric_hosts.h"

#include <utility>

namespace gpuscope::evaluate {

StatusOr<cupti::host::MetricHost*> MetricHosts::For(const std::string& chip) {
  std::unique_ptr<cupti::host::MetricHost>& host = hosts_[chip];
  if (!host) {
    StatusOr<std::unique_ptr<cupti::host::MetricHost>> opened = cupti::host::MetricHost::Open(chip);
    if (!opened.ok()) return opened.status();
    host = std::move(*opened);
  }
  return host.get();
}

}  // namespace gpuscope::evaluate

#include "evaluate/metric_hosts.h"

#include <utility>

namespace gpuscope::evaluate {

StatusOr<metric_host::MetricHost*> MetricHosts::For(const std::string& chip) {
  std::unique_ptr<metric_host::MetricHost>& host = hosts_[chip];
  if (!host) {
    StatusOr<std::unique_ptr<metric_host::MetricHost>> opened = metric_host::MetricHost::Open(chip);
    if (!opened.ok()) return opened.status();
    host = std::move(*opened);
  }
  return host.get();
}

}  // namespace gpuscope::evaluate

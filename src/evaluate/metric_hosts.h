// CUPTI's host objects (cupti/host/metric_host.h) by chip, opened on first use and kept for
// the rest of one evaluation: checking a request's metric names and evaluating every kernel
// measured on that chip then share one host object.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "cupti/host/metric_host.h"
#include "util/status.h"

namespace gpuscope::evaluate {

class MetricHosts {
 public:
  // The host object of `chip` as the report spells it. A chip CUPTI does not know is an error
  // each time it is asked for (nothing is remembered of a failure).
  StatusOr<cupti::host::MetricHost*> For(const std::string& chip);

 private:
  std::map<std::string, std::unique_ptr<cupti::host::MetricHost>> hosts_;
};

}  // namespace gpuscope::evaluate

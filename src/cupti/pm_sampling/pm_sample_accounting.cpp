#include "cupti/pm_sampling/pm_sample_accounting.h"

#include <algorithm>

namespace gpuscope::cupti {

bool PmSampleAccounting::OnSample(std::uint64_t start_ns, std::uint64_t end_ns) {
  if (!first_seen_) {
    // Not a sample of the period. At the first Start it marks where sampling begins; after a
    // restart the gap since the last sample, this one included, is counted at the next one.
    first_seen_ = true;
    if (last_end_ == 0) last_end_ = end_ns;
    return false;
  }
  if (last_end_ != 0 && start_ns > last_end_ && interval_ns_ != 0) {
    dropped_ += (start_ns - last_end_ + interval_ns_ / 2) / interval_ns_;
  }
  last_end_ = std::max(last_end_, end_ns);
  return true;
}

void PmSampleAccounting::OnDecode(std::uint64_t decoded, bool overflowed, std::uint64_t now_ns) {
  if (overflowed) {
    ++overflows_;
    // What one decode read is what the buffer holds: that many samples per decode period would
    // have fitted. Nothing read (CUPTI gave up before the first) or no earlier decode: at least
    // half the rate.
    std::uint64_t fitting = 2 * interval_ns_;
    if (decoded != 0 && last_decode_ns_ != 0 && now_ns > last_decode_ns_) {
      fitting = std::max(interval_ns_ + 1, (now_ns - last_decode_ns_) / decoded);
    }
    fitting_interval_ns_ = std::max(fitting_interval_ns_, fitting);
  }
  last_decode_ns_ = now_ns;
}

std::string PmSampleAccounting::LossSummary(std::uint32_t device_id) const {
  if (dropped_ == 0 && overflows_ == 0) return {};
  std::string line = "GPU metrics: device " + std::to_string(device_id) + ": " +
                     std::to_string(dropped_) + " sample(s) dropped, " + std::to_string(kept_) +
                     " kept";
  if (overflows_ != 0) {
    line += "; the hardware buffer overflowed " + std::to_string(overflows_) + " time(s)";
    if (fitting_interval_ns_ != 0) {
      line += ": at most --gpu-metrics-frequency " +
              std::to_string(1'000'000'000ull / fitting_interval_ns_) + " would fit";
    }
  }
  return line;
}

}  // namespace gpuscope::cupti

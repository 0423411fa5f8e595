#include "analysis/roofline/roofline_peaks.h"

namespace gpuscope::analysis::roofline {

std::optional<CacheBandwidth> CacheBandwidthOf(std::string_view chip) {
  if (chip == "GH100") {
    // Evaluated with the host API from the counter data of tests/data/reports/legacy/
    // h200_metrics_full_2026-11-21.sqlite (H200): l1tex__t_bytes.sum.peak_sustained = 67584
    // per cycle over 132 SMs = 512 per SM; lts__t_bytes.sum.peak_sustained = 9024 per L2 cycle at
    // lts__cycles_elapsed.avg.per_second = 1.709 GHz (k_saxpy) = 15.42 TB/s;
    // sm__sass_thread_inst_executed_op_{hfma,ffma}_pred_on.sum.peak_sustained both 16896.
    return CacheBandwidth{512.0, 9024.0 * 1.709e9, 1.0};
  }
  return std::nullopt;
}

}  // namespace gpuscope::analysis::roofline

// Roofs of known chips that a report may lack: the L1 and L2 bandwidths when it does not
// carry the peak metrics (<level>__t_bytes.sum.peak_sustained and <level>__cycles_elapsed.avg
// .per_second; the sections of `gpuscope profile` do not collect them yet).
#pragma once

#include <optional>
#include <string_view>

namespace gpuscope::analysis::roofline {

struct CacheBandwidth {
  double l1_bytes_per_sm_cycle = 0;  // l1tex__t_bytes per SM per cycle (L1 runs at SM clock)
  double l2_bytes_per_second = 0;    // lts__t_bytes, all slices, at the L2's own clock
  // HFMA thread instructions per cycle relative to FFMA (the FP16 roof when the report lacks
  // sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained); 0: unknown.
  double hfma_per_ffma = 0;
};

// Known chips by CUPTI's name ("GH100"); nullopt for others (their L1/L2 roofs are then
// left out rather than guessed).
std::optional<CacheBandwidth> CacheBandwidthOf(std::string_view chip);

}  // namespace gpuscope::analysis::roofline

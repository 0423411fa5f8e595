#include "analysis/rules/access_pattern.h"

#include <algorithm>

#include "analysis/rules/rule.h"
#include "analysis/rules/source_places.h"

namespace gpuscope::analysis::rules {

std::optional<AccessPatternEstimate> EstimateAccessPattern(const RuleInputs& in, bool load) {
  const auto bytes =
      in.Metric(load ? "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"
                     : "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio");
  if (!bytes || *bytes <= 0 || *bytes >= 32) return std::nullopt;
  const double waste = 1.0 - *bytes / 32.0;
  // Stores write through L1TEX: without a store hit rate every store sector reaches L2.
  const auto l1_hit =
      load ? in.Metric("l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct") : std::nullopt;
  const auto l2_hit = in.Metric(load ? "lts__t_sector_op_read_hit_rate.pct"
                                     : "lts__t_sector_op_write_hit_rate.pct");
  const double l1_miss = l1_hit ? std::clamp(1.0 - *l1_hit / 100.0, 0.0, 1.0) : 1.0;
  const double l2_miss = l2_hit ? std::clamp(1.0 - *l2_hit / 100.0, 0.0, 1.0) : 1.0;
  AccessPatternEstimate best{*bytes, 0, ""};
  const auto consider = [&](const char* level, std::optional<double> throughput, double reach) {
    if (!throughput || *throughput > 100.0) return;
    const double speedup = RuleInputs::WorkSpeedup(waste * reach, *throughput);
    if (speedup > best.speedup_pct) {
      best.speedup_pct = speedup;
      best.level = level;
    }
  };
  consider("L1TEX", in.Metric("l1tex__throughput.avg.pct_of_peak_sustained_active"), 1.0);
  consider("L2", in.Metric("lts__throughput.avg.pct_of_peak_sustained_elapsed"), l1_miss);
  consider("DRAM", in.Metric("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"),
           l1_miss * l2_miss);
  if (best.level.empty()) return std::nullopt;
  return best;
}

// Only a pattern that wastes at least an eighth of every sector (< 28 of 32 bytes used).
constexpr double kMaxBytesPerSector = 28.0;

std::optional<Finding> AccessPatternFinding(const RuleInputs& in, bool load, const Rule& rule) {
  // Speedup: kAccessPatternFormula.
  const auto estimate = EstimateAccessPattern(in, load);
  if (!estimate || estimate->bytes_per_sector >= kMaxBytesPerSector ||
      estimate->speedup_pct < 1.0) {
    return std::nullopt;
  }
  const std::string op = load ? "ld" : "st";
  const std::string what = load ? "loads" : "stores";
  std::string message = "The memory access pattern for global " + what +
                        " might not be optimal. On average, only " +
                        Fixed(estimate->bytes_per_sector, 1) +
                        " of the 32 bytes transmitted per sector are utilized by each thread";
  if (const auto sectors = in.Metric("l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum")) {
    if (const auto requests = in.Metric("l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum");
        requests && *requests > 0) {
      message += " (" + Fixed(*sectors / *requests, 1) + " sectors per request)";
    }
  }
  message += "; the waste matters most in " + estimate->level +
             ". This could possibly be caused by a stride between threads: make consecutive "
             "threads access consecutive addresses (transpose through shared memory, or use a "
             "structure of arrays).";
  // Where: the lines whose global loads (stores) waste the most sectors.
  const Places places = TopPlaces(in, "L2 Theoretical Sectors Global Excessive",
                                  load ? IsGlobalLoad : IsGlobalStore, 3);
  if (!places.top.empty()) {
    message += " The " + PlacesNoun(places) + " with the most excessive sectors: " +
               JoinPlaces(places.top,
                          [&places](const Place& place) {
                            return Count(static_cast<double>(place.value)) + " excessive sectors " +
                                   ShareOf(place.value, places.total) + " at " + PlaceText(place);
                          }) +
               ".";
  }
  return MakeFinding(rule, load ? "Uncoalesced Global Loads" : "Uncoalesced Global Stores", message,
                     estimate->speedup_pct);
}

}  // namespace gpuscope::analysis::rules

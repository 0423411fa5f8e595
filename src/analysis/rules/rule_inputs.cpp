#include "analysis/rules/rule_inputs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "analysis/metrics/section_values.h"
#include "util/saturating.h"

namespace gpuscope::analysis::rules {

RuleInputs::RuleInputs(const metrics::KernelProfile& profile, const source::KernelSource* source)
    : profile_(profile), source_(source) {
  sm_pct_ = Metric("sm__throughput.avg.pct_of_peak_sustained_elapsed");
  // The memory units of ncu's SOL header; the busiest one is the memory roof.
  const std::pair<const char*, const char*> units[] = {
      {"Memory", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"},
      {"L1/TEX Cache", "l1tex__throughput.avg.pct_of_peak_sustained_active"},
      {"L2 Cache", "lts__throughput.avg.pct_of_peak_sustained_elapsed"},
      {"DRAM", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"},
  };
  for (const auto& [unit, name] : units) {
    const std::optional<double> value = Metric(name);
    // L1/TEX is relative to its active cycles and exceeds 100% for a kernel that touches it
    // for a few cycles (k_tiny: 179%); such a value says nothing about a roof.
    if (!value || *value > 100.0) continue;
    if (!memory_pct_ || *value > *memory_pct_) {
      memory_pct_ = value;
      memory_unit_ = unit;
    }
  }
  StatusOr<OccupancyResult> occupancy = metrics::TheoreticalOccupancy(profile);
  if (occupancy.ok()) occupancy_ = *occupancy;
}

std::optional<double> RuleInputs::Metric(std::string_view name) const {
  const auto it = profile_.metrics.find(std::string(name));
  if (it == profile_.metrics.end() || !std::isfinite(it->second)) return std::nullopt;
  return it->second;
}

std::optional<double> RuleInputs::Sum(std::initializer_list<std::string_view> names) const {
  double sum = 0;
  for (std::string_view name : names) {
    const std::optional<double> value = Metric(name);
    if (!value) return std::nullopt;
    sum += *value;
  }
  return sum;
}

double RuleInputs::busiest_pct() const {
  return std::max(sm_pct_.value_or(0), memory_pct_.value_or(0));
}

std::string RuleInputs::busiest_unit() const {
  return sm_pct_.value_or(0) >= memory_pct_.value_or(0) ? std::string("Compute (SM)")
                                                        : memory_unit_;
}

bool RuleInputs::memory_bound() const {
  return memory_pct_ && *memory_pct_ >= kBusyPct && *memory_pct_ >= sm_pct_.value_or(0);
}

// Without the Speed Of Light numbers nothing says how busy the kernel is: no latency finding
// may then promise a speedup (0 keeps them under every rule's threshold).
double RuleInputs::IdleShare() const {
  if (!sm_pct_ && !memory_pct_) return 0.0;
  return std::clamp(1.0 - busiest_pct() / 100.0, 0.0, 1.0);
}

double RuleInputs::WorkSpeedup(double removed_share, double unit_pct) {
  return std::clamp(removed_share, 0.0, 1.0) * std::clamp(unit_pct, 0.0, 100.0);
}

double RuleInputs::LatencySpeedup(double local_share) const {
  return std::clamp(local_share, 0.0, 1.0) * IdleShare() * 100.0;
}

std::int64_t RuleInputs::grid_blocks() const {
  return SaturatingMul(SaturatingMul(profile_.grid[0], profile_.grid[1]), profile_.grid[2]);
}

int RuleInputs::threads_per_block() const {
  // Dimensions come from the report: 2^31 threads in x would overflow an int product.
  std::int64_t threads =
      SaturatingMul(SaturatingMul(profile_.block[0], profile_.block[1]), profile_.block[2]);
  return static_cast<int>(std::clamp<std::int64_t>(threads, std::numeric_limits<int>::min(),
                                                   std::numeric_limits<int>::max()));
}

bool RuleInputs::grid_smaller_than_sms() const {
  return num_sms() > 0 && grid_blocks() > 0 && grid_blocks() < num_sms();
}

std::string Count(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.0f", std::round(value));
  std::string digits = buffer;
  const bool negative = !digits.empty() && digits[0] == '-';
  std::string out;
  const std::size_t first = negative ? 1 : 0;
  for (std::size_t i = first; i < digits.size(); ++i) {
    if (i > first && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

std::string Fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

}  // namespace gpuscope::analysis::rules

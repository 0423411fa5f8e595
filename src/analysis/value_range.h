// Which measured values read from a report can be true. Every value of the three kinds passes
// here where it is loaded for analysis: profiled kernels' evaluated metrics (metrics/
// profile_loader's AssignMetrics, for readers and for the evaluation's rules alike), GPU metric
// samples (gpu_metric_samples.h) and source counters (source/source_view). A value outside its
// unit's physical range comes from damaged counter data or a damaged report, and printed it
// would be read as a fact (a memory throughput of 1,042,392,291.90 %, a negative duration, "SM
// inf GHz", a diff "-100.0% better beyond noise"). Such a value is left out (printed "n/a", not
// drawn) and counted by why, and every command that shows the values says how many it left out
// in one warning (ImpossibleValueWarning), as the readers do for damaged rows
// (store/damaged_rows.h).
//
// The ranges, by the unit CUPTI gives the metric:
// - every unit: a finite number (an infinity, or text where a number belongs, is no value);
// - "%": from -1 to 1000. Not 0 to 100: CUPTI's ratios of sampled counters pass 100 on real
//   hardware (the H100 recording in tests/data/reports has an L1/TEX throughput of 112% of
//   peak and L2 write hit rates up to 316% for a launch of one block), so only a percentage
//   far beyond any measured one, or clearly below zero, is impossible;
// - any other unit but "" (counts, durations, rates, averages): not negative;
// - counts and durations (a unit without '/': "inst", "byte", "cycle", "nsecond", ...): at
//   most 2^53, the largest integer a double holds exactly. A kernel reaching it would run for
//   hours at an H100's peak rates; INT64_MAX instructions is no measurement;
// - "" (a ratio CUPTI gives no unit): only finite; its sign is the metric's own business.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuscope::analysis {

enum class ImpossibleValue : std::uint8_t {
  kNotFinite,          // infinite, or text or a blob where a number belongs
  kPercentOutOfRange,  // a percentage outside kLowestPercent..kHighestPercent
  kNegative,           // a count, duration, rate or average below zero
  kCountTooLarge,      // a count or duration above kLargestCount
};
inline constexpr std::size_t kImpossibleValueKinds = 4;

inline constexpr double kLowestPercent = -1;
inline constexpr double kHighestPercent = 1000;
inline constexpr double kLargestCount = 9007199254740992.0;  // 2^53

// Why `value`, in `unit` (CUPTI's base unit: "%", "byte", "nsecond", "byte/second", ""),
// cannot be true; nullopt when it can.
std::optional<ImpossibleValue> CheckMetricValue(double value, std::string_view unit);

// Why a count read back from a report (an instruction's executed instructions or stall
// samples: stored as SQLite's signed 64-bit integer, read back unsigned) cannot be true:
// above INT64_MAX it was stored negative, and above kLargestCount it is too large; nullopt
// when it can.
std::optional<ImpossibleValue> CheckStoredCount(std::uint64_t value);

// How many values were left out, by why.
class ImpossibleValueCounts {
 public:
  void Add(ImpossibleValue why) { ++counts_[Index(why)]; }
  std::uint64_t count(ImpossibleValue why) const { return counts_[Index(why)]; }
  std::uint64_t total() const;
  ImpossibleValueCounts& operator+=(const ImpossibleValueCounts& other);

 private:
  static std::size_t Index(ImpossibleValue why) { return static_cast<std::size_t>(why); }
  std::array<std::uint64_t, kImpossibleValueKinds> counts_{};
};

// Which values were read, for the warning to name them.
enum class CheckedValues : std::uint8_t {
  kProfiledKernelMetrics,  // "metric values of profiled kernels"
  kGpuMetricSamples,       // "GPU metric sample values"
  kSourceCounters,         // "source counter values"
};

// One line for all of them ("3 metric values of profiled kernels cannot be true (2
// percentages outside -1% to 1000%, 1 infinite or not a number): left out"); nullopt when
// none was left out.
std::optional<std::string> ImpossibleValueWarning(
    const ImpossibleValueCounts& counts,
    CheckedValues values = CheckedValues::kProfiledKernelMetrics);

}  // namespace gpuscope::analysis

// Nsight Compute's sections and sets, as data: for every section its ncu identifier, its
// display name, and the rows it prints (label as ncu prints it, unit, and where the value
// comes from). `gpuscope profile` asks this catalog which metric names to collect, and the
// printers ask it what to print. Metric names were taken from ncu's own .section files and
// checked on GH100 with the Profiler Host API (tests/analysis/metrics/gh100_metric_names.txt lists
// them with how each was checked; ../shared/notes/cupti.md §3.4).
//
// The catalog is not ncu's section files reproduced: ncu's CLI prints only a section's
// header by default; we print the header table and then our own body tables (breakdowns,
// memory tables, stall reasons), because they are cheap and users ask for them.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace gpuscope::analysis::metrics {

// How a row's value is scaled for display (section_values.h applies it).
enum class UnitKind {
  kFixed,      // printed unscaled with `unit` as given (counts, %, cycles, ratios, "")
  kDuration,   // nanoseconds in; ns/us/ms/s out ("usecond" spelling in CSV)
  kFrequency,  // cycles per second in; hz/Khz/Mhz/Ghz out
  kBytes,      // bytes in; byte/Kbyte/Mbyte/Gbyte/Tbyte out (1000-based, like ncu); `unit`
               // is appended ("/block" -> "Kbyte/block")
  kByteRate,   // bytes per second in; byte/s ... Tbyte/s out
  kFlopRate,   // floating-point operations per second in; flop/s ... Tflop/s out
};

// Where a row's value comes from.
enum class ValueSource {
  kMetric,     // one CUPTI metric, `metrics[0]`
  kFormula,    // `formula` over the CUPTI metrics in `metrics` (all must be present)
  kLaunch,     // the launch configuration or the device (`launch_value`)
  kOccupancy,  // our occupancy calculator over the launch (`launch_value`)
};

// Values that come from the KernelProfile's launch fields, the device, or the theoretical
// occupancy (analysis/occupancy.h), not from counters.
enum class LaunchValue {
  kNone,
  kGridSize,   // blocks in the grid
  kBlockSize,  // threads per block
  kThreads,    // threads in the grid
  kRegistersPerThread,
  kStaticSharedMemoryPerBlock,
  kDynamicSharedMemoryPerBlock,
  kDriverSharedMemoryPerBlock,
  kSharedMemoryConfigurationSize,
  kClusterSize,
  kSmCount,
  kWavesPerSm,
  kTheoreticalOccupancy,
  kTheoreticalActiveWarps,
  kBlockLimitRegisters,
  kBlockLimitSharedMem,
  kBlockLimitWarps,
  kBlockLimitSm,
  kBlockLimitBarriers,
};

// A derived value from its inputs, in the order of SectionEntry::metrics.
using Formula = double (*)(std::span<const double> inputs);

struct SectionEntry {
  std::string label;  // as ncu prints it: "Compute (SM) Throughput"
  UnitKind unit_kind = UnitKind::kFixed;
  std::string unit;  // kFixed: the unit ("%", "cycle", ""); scaled kinds: a suffix ("/block")
  ValueSource source = ValueSource::kMetric;
  std::vector<std::string> metrics;  // kMetric: one name; kFormula: the inputs
  Formula formula = nullptr;
  LaunchValue launch_value = LaunchValue::kNone;
  // Empty: the section's header table; else the body table the row belongs to.
  std::string table;
  // The metric exists on some chips only (gmma stalls on CC 9.0, L2 compression as lrc__*):
  // the caller drops it when the chip lacks it instead of failing the whole collection.
  bool optional = false;

  // The CUPTI name a row shows in the CSV's "Metric Id": the metric of a kMetric row, empty
  // for derived rows.
  std::string MetricId() const;
};

struct Section {
  std::string identifier;         // ncu's: "SpeedOfLight"
  std::string display_name;       // "GPU Speed Of Light Throughput"
  std::vector<std::string> sets;  // "basic", "full"
  std::vector<SectionEntry> entries;
};

// The display name of the section that `--metrics a,b` become (ncu's wording).
inline constexpr std::string_view kCommandLineMetricsSection = "Command line profiler metrics";

// Every section, in the order ncu prints them.
const std::vector<Section>& AllSections();

// The sets ("basic", "full") in the order `--list-sets` prints them.
std::vector<std::string> AllSetNames();
// The sections of a set, in print order. An error names the set and lists the known ones.
StatusOr<std::vector<const Section*>> SectionsOfSet(std::string_view set);

// A section by identifier or display name, case-insensitively ("speedoflight", "Occupancy",
// "gpu speed of light throughput"). An error lists every identifier.
StatusOr<const Section*> FindSection(std::string_view name);

// Each of `names` by FindSection, in the order given; the first unknown name is the error.
StatusOr<std::vector<const Section*>> FindSections(const std::vector<std::string>& names);

// The sections a command asks for: the set's sections (when `set` is given) plus the named
// sections, in print order, each once. Neither given: the basic set, as ncu does.
StatusOr<std::vector<const Section*>> SelectSections(std::optional<std::string_view> set,
                                                     const std::vector<std::string>& sections);

// `--metrics a,b`: a last section whose rows are the metrics themselves (label = name).
Section CommandLineMetricsSection(const std::vector<std::string>& metric_names);

// Splits "a,b, c" into names; empty items are dropped.
std::vector<std::string> SplitMetricList(std::string_view list);

// The SM and DRAM clocks measured during a kernel: collected with every profile.
inline constexpr std::array<const char*, 2> kClockMetrics = {"gpc__cycles_elapsed.avg.per_second",
                                                             "dram__cycles_elapsed.avg.per_second"};

// The metric names to collect for these sections and the user's extra metrics (and the
// clocks, kClockMetrics), sorted and unique. `chip_has_metric`, when given, is asked about the
// optional names only; those it rejects are left out (a required name is always kept, so that a
// wrong one fails loudly).
std::vector<std::string> MetricsToCollect(
    const std::vector<const Section*>& sections, const std::vector<std::string>& extra_metrics,
    const std::function<bool(std::string_view)>& chip_has_metric = nullptr);

// The row that shows `metric_id` alone (a kMetric row: its ncu label, unit kind and unit), from
// the first section that has one; nullptr for a metric no row shows by itself (formula inputs,
// `--metrics` names). Lets readers that hold only metric ids (`gpuscope diff`) name them as ncu
// does.
const SectionEntry* FindMetricEntry(std::string_view metric_id);

// Every metric name a section may ask for, optional ones included, sorted and unique.
std::vector<std::string> SectionMetricNames(const Section& section);

}  // namespace gpuscope::analysis::metrics

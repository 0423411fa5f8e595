// The host side of hardware metrics: CUPTI's Profiler Host API behind a CUPTI-free, Status-based
// interface. Everything here works on a machine with no GPU and no driver, given only the chip
// name ("GH100"): listing and checking metric names, building the config image that the traced
// process hands to the Range Profiler, counting replay passes, and evaluating counter-data images
// stored in reports. The CLI links it to validate `--metrics` before a program starts; src/evaluate
// links it to evaluate the counter data of reports; the injection library links it to build the
// config image in the traced process.
//
// Metric names are CUPTI's: a base metric ("dram__bytes", "sm__throughput",
// "smsp__average_warp_latency_per_inst_issued") followed by a sub-metric that CUPTI lists for it
// (".sum", ".avg.per_second", ".pct", ...). A few GH100 bases carry a dotted prefix
// ("LTS.TriageCompute.lts__..."), so a name splits at the first '.' after its "__".
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "util/status.h"

namespace gpuscope::cupti::host {

enum class MetricKind { kCounter, kRatio, kThroughput };

// "counter", "ratio", "throughput" (for listings).
std::string_view MetricKindName(MetricKind kind);

struct MetricDescription {
  std::string name;
  MetricKind kind = MetricKind::kCounter;
  std::string description;
  // Nsight Compute's spelling of the value's unit, for printing: "%", "byte", "byte/second",
  // "cycle", "inst/cycle", "nsecond", "sector", ...; empty for plain ratios and unknown names.
  std::string unit;
  // CUPTI's own dimension text ("percent", "gpc_cycle", "l2_sector/l1tex_request").
  std::string dimension;
  std::string hw_unit;  // the unit that counts it: "dram", "sm", "smsp", "lts", ...
};

struct ConfigImage {
  std::vector<std::uint8_t> bytes;  // CUPTI's config image, for cuptiRangeProfilerSetConfig
  std::uint32_t passes = 0;         // replay passes it needs per kernel
};

class HostObject;  // CUPTI's host object (host_object.h); never seen by callers

// Which of CUPTI's profilers the names and config images are for: the Range Profiler (`gpuscope
// profile`) or PM sampling (`gpuscope run --gpu-metrics`), whose catalog differs (its
// *_realtime metrics exist only there) and whose config must fit one pass.
enum class ProfilerKind { kRange, kPmSampling };

// One host object for one chip. Not thread-safe: give each thread its own.
class MetricHost {
 public:
  ~MetricHost();
  MetricHost(const MetricHost&) = delete;
  MetricHost& operator=(const MetricHost&) = delete;

  // The chips this CUPTI knows, as CUPTI spells them ("GV100", ..., "GH100", ...).
  static StatusOr<std::vector<std::string>> SupportedChips();

  // Case-insensitive ("gh100" works). An unknown chip gets a one-line error listing the
  // supported chips. `counter_availability`: on a target, the device's availability image
  // (cuptiPmSamplingGetCounterAvailability), so that configs use only counters the device
  // offers now; empty (offline): every counter of the chip is assumed available.
  static StatusOr<std::unique_ptr<MetricHost>> Open(
      std::string_view chip, ProfilerKind kind = ProfilerKind::kRange,
      std::vector<std::uint8_t> counter_availability = {});

  const std::string& chip() const { return chip_; }  // as CUPTI spells it: "GH100"
  ProfilerKind kind() const { return kind_; }

  // Every base metric of every kind, sorted by name, with description and units. Built on the
  // first call (a few thousand property queries, ~10 ms) and cached.
  const std::vector<MetricDescription>& BaseMetrics();

  // The sub-metric suffixes valid for a base metric (".sum", ".avg.per_second", ...), in CUPTI's
  // order; empty for an unknown base. Cached per base.
  const std::vector<std::string>& SubMetrics(std::string_view base);

  // Whether a full metric name ("dram__bytes.sum.per_second") is one CUPTI lists for this chip:
  // a base metric plus one of its sub-metrics. Parsed against the catalog (microseconds per name,
  // where asking CUPTI to configure each name costs ~3 ms). The error is one line that names the
  // metric and up to 3 nearest valid names ("did you mean ..."). CUPTI lists a few sub-metrics it
  // cannot schedule (GH100: the chip-to-chip ctc__ metrics' per-cycle and %-of-peak sub-metrics);
  // MakeConfig catches and names those.
  Status CheckMetric(std::string_view name);
  // The first error among `names`, or ok.
  Status CheckMetrics(const std::vector<std::string>& names);

  // Up to `count` valid full names nearest to `name`, nearest first. A valid base with a bad
  // suffix gets that base's nearest suffixes; otherwise the nearest bases by edit distance
  // (case-insensitive), each with the typed suffix when valid for it, else its nearest suffix.
  std::vector<std::string> NearestNames(std::string_view name, std::size_t count);

  // The config image for `names` (scheduled together, so passes are shared). Any name CUPTI
  // refuses fails the whole image, and the error names it: a name the catalog rejects (see
  // CheckMetric), or one of the few sub-metrics CUPTI lists but cannot schedule.
  StatusOr<ConfigImage> MakeConfig(const std::vector<std::string>& names);
  StatusOr<std::uint32_t> CountPasses(const std::vector<std::string>& names);

  // Evaluates range `range` (auto range: the n-th profiled launch) of a counter-data image. Any
  // metric whose counters the image holds can be evaluated, not only the names configured. One
  // bad or uncollected name fails a CUPTI batch wholesale, so on failure the names are evaluated
  // one by one and a name that still fails is nullopt. Values are CUPTI's, unchanged (a NaN stays
  // NaN). Errors: an empty image, a range the image does not hold.
  StatusOr<std::vector<std::optional<double>>> Evaluate(std::span<const std::uint8_t> counter_data,
                                                        std::size_t range,
                                                        const std::vector<std::string>& names);

  // Description and unit of a full metric name as CUPTI reports them for that sub-metric
  // (".pct" -> "%", ".per_second" -> "<unit>/second", ".ratio" of a plain ratio -> ""). An
  // unknown name gets its name, the base's kind when the base is known, and empty texts.
  MetricDescription Describe(std::string_view full_name);

 private:
  struct BaseEntry {
    MetricKind kind;
    std::optional<std::vector<std::string>> sub_metrics;  // filled on first use
  };

  MetricHost(std::string chip, ProfilerKind kind, std::vector<std::uint8_t> counter_availability,
             std::unique_ptr<HostObject> host);
  StatusOr<std::unique_ptr<HostObject>> NewHostObject() const;
  Status LoadBaseNames();
  BaseEntry* FindBase(std::string_view base);
  bool HasSubMetric(std::string_view base, std::string_view suffix);
  // The names CUPTI refuses to configure, each tried alone.
  std::vector<std::string> UnschedulableNames(const std::vector<std::string>& names);

  std::string chip_;
  ProfilerKind kind_;
  std::vector<std::uint8_t> counter_availability_;  // every host object's (empty: offline)
  std::unique_ptr<HostObject> host_;
  std::unordered_map<std::string, BaseEntry> bases_;
  std::vector<std::string> base_names_;  // sorted: the candidates of NearestNames
  std::vector<MetricDescription> base_metrics_;
};

// How many ranges (profiled launches, in launch order) a counter-data image holds. CUPTI
// answers only once its host side is initialised: call it after MetricHost::Open (of any
// chip); before, it fails with CUPTI_ERROR_NOT_INITIALIZED.
StatusOr<std::size_t> CounterDataRangeCount(std::span<const std::uint8_t> counter_data);

// How many completed samples a PM sampling counter-data image holds (the ranges
// MetricHost::Evaluate of a kPmSampling host takes). Needs no GPU.
StatusOr<std::size_t> PmSamplingSampleCount(std::span<const std::uint8_t> counter_data);

}  // namespace gpuscope::cupti::host

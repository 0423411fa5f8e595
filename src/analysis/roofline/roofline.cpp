#include "analysis/roofline/roofline.h"

#include <algorithm>
#include <cstdio>

#include "analysis/roofline/roofline_peaks.h"

namespace gpuscope::analysis::roofline {
namespace {

constexpr std::string_view kDuration = "gpu__time_duration.sum";
constexpr std::string_view kSmClock = "sm__cycles_elapsed.avg.per_second";
constexpr std::string_view kSmThroughput = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr std::string_view kMemoryThroughput =
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
constexpr std::string_view kL1Throughput = "l1tex__throughput.avg.pct_of_peak_sustained_active";
constexpr std::string_view kL1DataStageBusy =
    "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed";

// Looks a metric up, recording its name in `missing` when absent.
class MetricLookup {
 public:
  MetricLookup(const metrics::KernelProfile& profile, std::vector<std::string>& missing)
      : profile_(profile), missing_(missing) {}

  std::optional<double> Required(std::string_view name) const {
    auto found = profile_.metrics.find(std::string(name));
    if (found != profile_.metrics.end()) return found->second;
    if (std::find(missing_.begin(), missing_.end(), name) == missing_.end()) {
      missing_.emplace_back(name);
    }
    return std::nullopt;
  }
  // For inputs with a fallback: absence is not worth reporting.
  std::optional<double> Optional(std::string_view name) const {
    auto found = profile_.metrics.find(std::string(name));
    if (found == profile_.metrics.end()) return std::nullopt;
    return found->second;
  }

 private:
  const metrics::KernelProfile& profile_;
  std::vector<std::string>& missing_;
};

std::optional<double> Product(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  return *a * *b;
}

std::optional<double> Percent(std::optional<double> achieved, std::optional<double> peak) {
  if (!achieved || !peak || *peak <= 0) return std::nullopt;
  return 100.0 * *achieved / *peak;
}

std::string SassOp(char type, std::string_view op) {
  return "smsp__sass_thread_inst_executed_op_" + std::string(1, type) + std::string(op) +
         "_pred_on.sum";
}

// add + mul + 2 x fma of one precision ('d', 'f', 'h').
std::optional<double> FlopsOf(char type, const MetricLookup& metrics) {
  std::optional<double> add = metrics.Required(SassOp(type, "add"));
  std::optional<double> mul = metrics.Required(SassOp(type, "mul"));
  std::optional<double> fma = metrics.Required(SassOp(type, "fma"));
  if (!add || !mul || !fma) return std::nullopt;
  return *add + *mul + 2.0 * *fma;
}

FlopRate FloatingPointRate(Precision precision, char type, std::optional<double> duration_ns,
                           std::optional<double> sm_clock, const std::string& chip,
                           const MetricLookup& metrics) {
  FlopRate rate;
  rate.precision = precision;
  rate.flops = FlopsOf(type, metrics);
  if (rate.flops && duration_ns && *duration_ns > 0) {
    rate.flop_per_second = *rate.flops / (*duration_ns * 1e-9);
  }
  // FP16's peak metric is not in every section set; without it there is no FP16 roof.
  std::string peak_name =
      "sm__sass_thread_inst_executed_op_" + std::string(1, type) + "fma_pred_on.sum.peak_sustained";
  std::optional<double> fma_per_cycle =
      type == 'h' ? metrics.Optional(peak_name) : metrics.Required(peak_name);
  if (!fma_per_cycle && type == 'h') {
    std::optional<CacheBandwidth> table = CacheBandwidthOf(chip);
    std::optional<double> ffma =
        metrics.Optional("sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained");
    if (table && table->hfma_per_ffma > 0 && ffma) fma_per_cycle = *ffma * table->hfma_per_ffma;
  }
  if (fma_per_cycle) rate.peak_flop_per_second = Product(Product(fma_per_cycle, 2.0), sm_clock);
  rate.pct_of_peak = Percent(rate.flop_per_second, rate.peak_flop_per_second);
  return rate;
}

FlopRate TensorRate(const MetricLookup& metrics, std::optional<double> duration_ns) {
  FlopRate rate;
  rate.precision = Precision::kTensor;
  // Tensor-core math operations by floating-point input type (collected by the roofline
  // section on chips that have them): real FLOPs, with the dense FP16 path's peak as the roof.
  std::optional<double> ops;
  for (const char* name :
       {"sm__ops_path_tensor_src_fp16.sum", "sm__ops_path_tensor_src_bf16_dst_fp32.sum",
        "sm__ops_path_tensor_src_tf32_dst_fp32.sum", "sm__ops_path_tensor_src_fp8.sum",
        "sm__ops_path_tensor_src_fp64.sum"}) {
    if (std::optional<double> value = metrics.Optional(name)) ops = ops.value_or(0) + *value;
  }
  // The roof is the one the tensor pipe's utilisation implies, not the counters'
  // .peak_sustained: on GH100 that is the 2:4-sparse rate, twice the dense one (H200, a 4096^3
  // FP16 torch.mm: 137,438,953,472 ops = 2 n^3 exactly, 750 Tflop/s at 1.54 GHz with the pipe
  // 89.8% busy, while peak_sustained said 1,081,344 ops/cycle = 1.67 Pflop/s).
  const std::optional<double> pipe_pct =
      metrics.Optional("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed");
  if (ops) {
    rate.flops = ops;
    if (duration_ns && *duration_ns > 0) rate.flop_per_second = *ops / (*duration_ns * 1e-9);
    rate.pct_of_peak = pipe_pct;
    if (rate.flop_per_second && pipe_pct && *pipe_pct >= 1.0) {
      rate.peak_flop_per_second = *rate.flop_per_second / (*pipe_pct / 100.0);
    }
    return rate;
  }
  // Without them: warp-level MMA instructions. On GH100 the compiler also issues HFMA2.MMA (a
  // register move on the MMA pipe) in kernels with no matrix math, so this count alone does
  // not mean tensor work; the pipe's utilisation below is the roof share.
  std::optional<double> hmma = metrics.Optional("sm__inst_executed_pipe_tensor_op_hmma.sum");
  std::optional<double> gmma = metrics.Optional("sm__inst_executed_pipe_tensor_op_gmma.sum");
  if (hmma || gmma) rate.flops = hmma.value_or(0) + gmma.value_or(0);
  rate.pct_of_peak = pipe_pct;
  return rate;
}

Bandwidth LevelBandwidth(MemoryLevel level, std::string_view prefix,
                         std::optional<double> duration_ns, std::optional<double> sm_clock,
                         const metrics::KernelProfile& profile, const MetricLookup& metrics) {
  Bandwidth bw;
  bw.level = level;
  std::string base = std::string(prefix) + (level == MemoryLevel::kDram ? "__bytes" : "__t_bytes");
  bw.bytes = metrics.Required(base + ".sum");
  if (bw.bytes && duration_ns && *duration_ns > 0) {
    bw.bytes_per_second = *bw.bytes / (*duration_ns * 1e-9);
  }
  std::optional<double> from_metrics =
      Product(metrics.Optional(base + ".sum.peak_sustained"),
              metrics.Optional(std::string(prefix) + "__cycles_elapsed.avg.per_second"));
  if (from_metrics) {
    bw.peak_bytes_per_second = from_metrics;
    bw.peak_source = "metrics";
  } else if (level == MemoryLevel::kDram) {
    // The DRAM roof has no fallback worth trusting: name the metrics it needs.
    metrics.Required("dram__bytes.sum.peak_sustained");
    metrics.Required("dram__cycles_elapsed.avg.per_second");
  } else {
    // L2: lts__t_sectors counts the sectors lts__t_bytes counts (32 bytes each), so its
    // measured share of peak is lts__t_bytes' share too. Too small a share would only
    // magnify rounding, hence the 1% floor.
    std::optional<double> share =
        level == MemoryLevel::kL2
            ? metrics.Optional("lts__t_sectors.avg.pct_of_peak_sustained_elapsed")
            : std::nullopt;
    std::optional<CacheBandwidth> table = CacheBandwidthOf(profile.chip);
    if (share && *share >= 1.0 && bw.bytes_per_second) {
      bw.peak_bytes_per_second = *bw.bytes_per_second / (*share / 100.0);
      bw.peak_source = "measured share of peak";
    } else if (table && level == MemoryLevel::kL2) {
      bw.peak_bytes_per_second = table->l2_bytes_per_second;
      bw.peak_source = profile.chip + " table";
    } else if (table && sm_clock && profile.device.num_sms > 0) {
      bw.peak_bytes_per_second = table->l1_bytes_per_sm_cycle * profile.device.num_sms * *sm_clock;
      bw.peak_source = profile.chip + " table";
    }
  }
  bw.pct_of_peak = Percent(bw.bytes_per_second, bw.peak_bytes_per_second);
  if (level == MemoryLevel::kL1) {
    // See roofline.h, "L1 busy": shared-memory wavefronts occupy L1/TEX without tag-stage bytes.
    std::optional<double> data_stage = metrics.Optional(kL1DataStageBusy);
    if (data_stage && (!bw.pct_of_peak || *data_stage > *bw.pct_of_peak)) {
      bw.pct_of_peak = data_stage;
      bw.busy_source = "L1/TEX data stage (shared memory included)";
    }
  }
  return bw;
}

std::string FormatPct(double pct) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", pct);
  return text;
}

struct Candidate {
  Bound kind;
  std::string limiter;
  double pct;
};

RooflineVerdict DecideVerdict(const RooflineResult& r, const MetricLookup& metrics) {
  std::vector<Candidate> memory;
  std::vector<Candidate> compute;
  for (const Bandwidth& bw : r.levels) {
    if (bw.pct_of_peak) {
      memory.push_back({Bound::kMemory, std::string(MemoryLevelName(bw.level)), *bw.pct_of_peak});
    }
  }
  for (const FlopRate& rate : r.precisions) {
    if (rate.pct_of_peak) {
      compute.push_back(
          {Bound::kCompute, std::string(PrecisionName(rate.precision)), *rate.pct_of_peak});
    }
  }
  // Speed Of Light sees stages the byte and FLOP counts do not; they decide busy-ness, the
  // specific roofs name the limiter when one of them is busy itself.
  if (r.memory_throughput_pct)
    memory.push_back({Bound::kMemory, "memory", *r.memory_throughput_pct});
  if (r.sm_throughput_pct) compute.push_back({Bound::kCompute, "SM", *r.sm_throughput_pct});

  auto busiest = [](const std::vector<Candidate>& list) -> std::optional<Candidate> {
    if (list.empty()) return std::nullopt;
    return *std::max_element(list.begin(), list.end(),
                             [](const Candidate& a, const Candidate& b) { return a.pct < b.pct; });
  };
  std::optional<Candidate> top_memory = busiest(memory);
  std::optional<Candidate> top_compute = busiest(compute);

  RooflineVerdict verdict;
  if (!top_memory && !top_compute) {
    verdict.reason =
        "no throughput metrics: profile with --set full (or the SpeedOfLight and "
        "roofline sections)";
    return verdict;
  }
  const std::vector<Candidate>* side = &memory;
  Candidate top = top_memory.value_or(Candidate{Bound::kMemory, "", -1});
  if (top_compute && top_compute->pct > top.pct) {
    top = *top_compute;
    side = &compute;
  }
  verdict.utilization_pct = top.pct;
  verdict.headroom = top.pct > 0 ? 100.0 / top.pct : std::optional<double>();

  if (top.pct < kBusyUnitThresholdPct) {
    verdict.bound = Bound::kLatency;
    verdict.limiter = top.limiter;
    verdict.reason = "no unit reaches " + FormatPct(kBusyUnitThresholdPct) +
                     " of its peak (busiest: " + top.limiter + " at " + FormatPct(top.pct) +
                     "): the kernel waits on latency or has too little parallel work";
    return verdict;
  }
  verdict.bound = top.kind;
  // Name the specific roof when it is busy itself; otherwise keep the generic stage.
  std::optional<Candidate> specific;
  for (const Candidate& c : *side) {
    if (c.limiter == "memory" || c.limiter == "SM") continue;
    if (c.pct >= kBusyUnitThresholdPct && (!specific || c.pct > specific->pct)) specific = c;
  }
  if (specific) {
    // The named roof's own share: the headroom is to that roof.
    verdict.limiter = specific->limiter;
    verdict.utilization_pct = specific->pct;
    verdict.headroom = 100.0 / specific->pct;
  } else if (top.kind == Bound::kMemory &&
             metrics.Optional(kL1Throughput).value_or(0) >= kBusyUnitThresholdPct) {
    verdict.limiter = "L1/TEX";  // shared memory or L1 wavefronts, which move few bytes
  } else {
    verdict.limiter = top.limiter;
  }
  // A throughput that was not measured (or was left out as impossible) is no 0%.
  auto share = [](std::optional<double> pct) -> std::string {
    return pct ? FormatPct(*pct) : "n/a";
  };
  verdict.reason = verdict.limiter + " at " + FormatPct(*verdict.utilization_pct) +
                   " of its peak (Compute (SM) Throughput " + share(r.sm_throughput_pct) +
                   ", Memory Throughput " + share(r.memory_throughput_pct) + ")";
  return verdict;
}

}  // namespace

std::string_view PrecisionName(Precision precision) {
  switch (precision) {
    case Precision::kFp64:
      return "FP64";
    case Precision::kFp32:
      return "FP32";
    case Precision::kFp16:
      return "FP16";
    case Precision::kTensor:
      return "Tensor";
  }
  return "?";
}

std::string_view MemoryLevelName(MemoryLevel level) {
  switch (level) {
    case MemoryLevel::kDram:
      return "DRAM";
    case MemoryLevel::kL2:
      return "L2";
    case MemoryLevel::kL1:
      return "L1";
  }
  return "?";
}

std::string_view BoundName(Bound bound) {
  switch (bound) {
    case Bound::kUnknown:
      return "unknown";
    case Bound::kMemory:
      return "memory-bound";
    case Bound::kCompute:
      return "compute-bound";
    case Bound::kLatency:
      return "latency-bound";
  }
  return "unknown";
}

std::optional<double> RooflineResult::Intensity(Precision p, MemoryLevel l) const {
  const FlopRate& r = rate(p);
  const Bandwidth& b = level(l);
  if (p == Precision::kTensor || !r.flops || !b.bytes || *b.bytes <= 0) return std::nullopt;
  return *r.flops / *b.bytes;
}

Precision RooflineResult::MainPrecision() const {
  Precision main = Precision::kFp32;
  double most = 0;
  for (Precision p : {Precision::kFp64, Precision::kFp32, Precision::kFp16}) {
    double flops = rate(p).flops.value_or(0);
    if (flops > most) {
      most = flops;
      main = p;
    }
  }
  return main;
}

RooflineResult ComputeRoofline(const metrics::KernelProfile& profile) {
  RooflineResult r;
  r.kernel_name = profile.function_name.empty() ? profile.demangled_name : profile.function_name;
  r.profile_index = profile.profile_index;
  r.grid = profile.grid;
  r.block = profile.block;
  r.chip = profile.chip;
  for (int i = 0; i < 4; ++i) r.precisions[i].precision = static_cast<Precision>(i);
  for (int i = 0; i < 3; ++i) r.levels[i].level = static_cast<MemoryLevel>(i);
  if (!profile.measured) {
    r.verdict.reason =
        "not measured" + (profile.failure.empty() ? std::string() : ": " + profile.failure);
    return r;
  }
  MetricLookup metrics(profile, r.missing);
  r.duration_ns = metrics.Required(kDuration);
  std::optional<double> sm_clock = metrics.Required(kSmClock);
  r.precisions[0] =
      FloatingPointRate(Precision::kFp64, 'd', r.duration_ns, sm_clock, profile.chip, metrics);
  r.precisions[1] =
      FloatingPointRate(Precision::kFp32, 'f', r.duration_ns, sm_clock, profile.chip, metrics);
  r.precisions[2] =
      FloatingPointRate(Precision::kFp16, 'h', r.duration_ns, sm_clock, profile.chip, metrics);
  r.precisions[3] = TensorRate(metrics, r.duration_ns);
  r.levels[0] =
      LevelBandwidth(MemoryLevel::kDram, "dram", r.duration_ns, sm_clock, profile, metrics);
  r.levels[1] = LevelBandwidth(MemoryLevel::kL2, "lts", r.duration_ns, sm_clock, profile, metrics);
  r.levels[2] =
      LevelBandwidth(MemoryLevel::kL1, "l1tex", r.duration_ns, sm_clock, profile, metrics);
  r.sm_throughput_pct = metrics.Required(kSmThroughput);
  r.memory_throughput_pct = metrics.Required(kMemoryThroughput);
  if (!r.duration_ns) {
    r.verdict.reason = "the duration (" + std::string(kDuration) + ") was not collected";
    return r;
  }
  r.verdict = DecideVerdict(r, metrics);
  return r;
}

}  // namespace gpuscope::analysis::roofline

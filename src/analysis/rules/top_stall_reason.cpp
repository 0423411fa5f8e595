// The warp stall reason that costs the most cycles between two issued instructions, with
// what usually causes it. Stalls only matter when the schedulers fail to issue.
#include <algorithm>
#include <string_view>

#include "analysis/rules/all_rules.h"
#include "analysis/rules/source_places.h"

namespace gpuscope::analysis::rules {
namespace {

struct StallReason {
  std::string_view metric_part;  // in smsp__average_warps_issue_stalled_<part>_per_issue_active
  std::string_view label;
  bool memory;  // waiting on the memory system
  std::string_view advice;
};

constexpr StallReason kReasons[] = {
    {"long_scoreboard", "Long Scoreboard", true,
     "warps wait for L1TEX (global, local, texture) results: improve locality, coalesce, move "
     "reused data to shared memory, or keep more loads in flight"},
    {"lg_throttle", "LG Throttle", true,
     "the local/global memory queue is full: issue fewer, wider memory instructions (vector "
     "loads) and avoid local memory spills"},
    {"mio_throttle", "MIO Throttle", true,
     "the memory input/output queue is full, usually with shared memory instructions or bank "
     "conflicts"},
    {"short_scoreboard", "Short Scoreboard", true,
     "warps wait for shared memory or MUFU/XU results: reduce bank conflicts and special-function "
     "or conversion instructions"},
    {"drain", "Drain", true, "warps wait at exit for their memory stores to drain"},
    {"tex_throttle", "Tex Throttle", true, "the texture unit queue is full"},
    {"imc_miss", "IMC Miss", true, "constant cache misses: keep constant accesses uniform"},
    {"barrier", "Barrier", false,
     "warps wait at __syncthreads for the slowest warp: balance the work before barriers"},
    {"membar", "Membar", false, "warps wait on memory barriers: use fewer or narrower fences"},
    {"math_pipe_throttle", "Math Pipe Throttle", false,
     "a math pipe is saturated: spread the work over other pipes or lower the precision"},
    {"wait", "Wait", false, "fixed-latency dependencies: give the scheduler more independent work"},
    {"branch_resolving", "Branch Resolving", false,
     "branch targets are being computed: fewer and more uniform branches"},
    {"dispatch_stall", "Dispatch Stall", false,
     "the dispatcher could not issue: pipeline conflict"},
    {"no_instruction", "No Instruction", false,
     "instruction cache misses: smaller code (less unrolling) or many short kernels"},
    {"sleeping", "Sleeping", false, "warps sleep (nanosleep, yield)"},
    {"misc", "Misc", false, "miscellaneous hardware reasons"},
    {"gmma", "GMMA", false, "warpgroup MMA resources are busy"},
};

// Issuing on 80% of cycles or more: stalls are hidden (ncu: "only focus on stall reasons if the
// schedulers fail to issue every cycle"). A top stall below 20% of the cycles explains little.
constexpr double kMaxIssueActive = 0.8;
constexpr double kMinStallShare = 0.2;

// The source page's sample column of `reason` (PC sampling names it alike, but for
// "no_instructions"); "" when PC sampling has no such reason (GMMA).
std::string SampleColumn(std::string_view metric_part) {
  const std::string suffix =
      metric_part == "no_instruction" ? std::string("no_instructions") : std::string(metric_part);
  for (const source::SourceColumn& column : source::SourceColumns()) {
    if (column.kind == source::ColumnKind::kStallReason && column.metric == suffix) {
      return std::string(column.header);
    }
  }
  return "";
}

// " The lines where warps wait on Long Scoreboard: 1,234 samples (40.0% of the kernel's) at
// k.cu:4 `...`.": the lines with the most PC samples of the reason; "" without samples.
std::string StallPlaces(const RuleInputs& in, const StallReason& reason) {
  const std::string column = SampleColumn(reason.metric_part);
  if (column.empty()) return "";
  const Places places = TopPlaces(in, column, nullptr, 3);
  if (places.top.empty()) return "";
  return " The " + PlacesNoun(places) + " where warps wait on " + std::string(reason.label) + ": " +
         JoinPlaces(places.top,
                    [&places](const Place& place) {
                      return Count(static_cast<double>(place.value)) + " samples " +
                             ShareOf(place.value, places.total) + " at " + PlaceText(place);
                    }) +
         ".";
}

std::optional<Finding> EvaluateTopStallReason(const RuleInputs& in) {
  const auto latency = in.Metric("smsp__average_warp_latency_per_inst_issued.ratio");
  const auto issue = in.Metric("smsp__issue_active.avg.per_cycle_active");
  if (!latency || !issue || *latency <= 0 || *issue >= kMaxIssueActive ||
      in.grid_smaller_than_sms()) {
    return std::nullopt;
  }
  const StallReason* top = nullptr;
  double top_cycles = 0;
  for (const StallReason& reason : kReasons) {
    const auto cycles = in.Metric("smsp__average_warps_issue_stalled_" +
                                  std::string(reason.metric_part) + "_per_issue_active.ratio");
    if (cycles && *cycles > top_cycles) {
      top = &reason;
      top_cycles = *cycles;
    }
  }
  if (top == nullptr) return std::nullopt;
  const double share = top_cycles / *latency;
  if (share < kMinStallShare) return std::nullopt;
  std::string message = "On average, each warp of this kernel spends " + Fixed(top_cycles, 1) +
                        " cycles stalled on " + std::string(top->label) + ", " +
                        Fixed(share * 100, 1) + "% of the " + Fixed(*latency, 1) +
                        " cycles between two issued instructions: " + std::string(top->advice) +
                        "." + StallPlaces(in, *top);
  // A memory stall in a memory-bound kernel is the memory bound itself, not a second problem:
  // no speedup of its own (the access-pattern rules and the roof say what is left).
  if (top->memory && in.memory_bound()) {
    message += " The kernel is memory-bound (" + in.memory_unit() + " " +
               Fixed(*in.memory_pct(), 1) +
               "%): these stalls are that bound, and moving fewer bytes is what shortens them.";
    Finding finding = MakeFinding(TopStallReasonRule(), "Stall " + std::string(top->label), message,
                                  std::nullopt);
    finding.severity = Severity::kInf;
    return finding;
  }
  // Speedup = stall cycles / warp cycles per issued instruction x (1 - busiest unit %)
  // (latency-hiding).
  return MakeFinding(TopStallReasonRule(), "Stall " + std::string(top->label), message,
                     in.LatencySpeedup(share));
}

}  // namespace

const Rule& TopStallReasonRule() {
  static const Rule rule{
      "top_stall_reason",
      "WarpStateStats",
      Severity::kOpt,
      "schedulers issue on < 80% of cycles and one stall reason takes >= 20% of the warp cycles "
      "per issued instruction (INF when it is a memory stall of a memory-bound kernel)",
      "stall cycles / warp cycles per issued instruction x (1 - busiest unit throughput %)",
      EvaluateTopStallReason};
  return rule;
}

}  // namespace gpuscope::analysis::rules

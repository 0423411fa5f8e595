#include "store/testing/rank_reports.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "model/records.h"
#include "store/report_writer.h"
#include "store/testing/devices.h"
#include "store/testing/synthetic_trace.h"

namespace gpuscope::store::testing {

namespace {

// True time of the job's start (October 2025, CLOCK_REALTIME ns).
constexpr std::int64_t kJobStart = 1'760'000'000'000'000'000;
constexpr std::int64_t kFirstStepAfter = 2'000'000;   // ns from the job's start
constexpr std::int64_t kApiNs = 2'500;                // a launch call, plus up to 1 us of jitter
constexpr std::int64_t kApiGapNs = 800;               // between two launch calls
constexpr std::int64_t kLaunchLatencyNs = 4'000;      // launch call's end -> kernel start, at best
constexpr std::int64_t kKernelGapNs = 1'000;          // between two kernels of one stream
constexpr std::int64_t kStepGapNs = 10'000;           // all-reduce end -> next step's first launch
constexpr std::int64_t kSampleEveryNs = 500'000'000;  // clock samples and commits, as the injection
constexpr std::int64_t kRealtimeReadNs = 40;  // CLOCK_REALTIME read right after CUPTI's clock
constexpr std::uint32_t kContext = 1;

// Stateless, so that the planning pass and the writing pass draw the same jitter.
std::uint64_t Mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
std::uint64_t Draw(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return Mix(Mix(Mix(Mix(seed) ^ a) ^ b) ^ c);
}
// Uniform in [0, bound).
std::int64_t Jitter(std::uint64_t draw, std::int64_t bound) {
  return bound <= 0 ? 0 : static_cast<std::int64_t>(draw % static_cast<std::uint64_t>(bound));
}

// One launch of a step, times in ns from the step's begin.
struct Launch {
  std::string_view name;
  std::uint32_t stream = kComputeStream;
  std::int64_t api_start = 0, api_end = 0;
  std::int64_t start = 0, end = 0;
};

// A step of one rank, times in ns from the step's begin.
struct StepPlan {
  std::int64_t host_start = 0;  // the rank's host begins the step
  std::int64_t arrival = 0;     // its all-reduce starts (the rank arrives)
  Launch all_reduce;            // its launch call; start = arrival, end set by the caller
};

// Walks a step of `rank`: each compute launch goes to `on_launch`; returns when the rank
// arrives at the all-reduce. Deterministic for the spec's seed.
template <typename OnLaunch>
StepPlan PlanStep(const RankReportsSpec& spec, int rank, int step, OnLaunch&& on_launch) {
  const auto r = static_cast<std::uint64_t>(rank);
  const auto s = static_cast<std::uint64_t>(step);
  StepPlan plan;
  plan.host_start = Jitter(Draw(spec.seed, r, s, 0xffff'ffffull), 3'000);
  std::int64_t host = plan.host_start;
  std::int64_t gpu_free = plan.host_start;
  for (int k = 0; k < spec.kernels_per_step; ++k) {
    const std::uint64_t draw = Draw(spec.seed, r, s, static_cast<std::uint64_t>(k));
    Launch launch;
    const bool gemm = k % 2 == 0;
    launch.name = gemm ? kGemmKernel : kElementwiseKernel;
    launch.api_start = host;
    launch.api_end = host + kApiNs + Jitter(draw >> 40, 1'000);
    const std::int64_t base = gemm ? spec.kernel_ns : spec.kernel_ns / 4;
    // Within +-2% of the base duration.
    const std::int64_t duration =
        std::max<std::int64_t>(1, base - base / 50 + Jitter(draw & 0xffff'ffffull, base / 25 + 1));
    launch.start = std::max(launch.api_end + kLaunchLatencyNs, gpu_free + kKernelGapNs);
    launch.end = launch.start + duration;
    on_launch(launch);
    gpu_free = launch.end;
    host = launch.api_end + kApiGapNs;
  }
  // The host launches the all-reduce right after its compute (the straggler that much later);
  // the kernel starts once both its launch and the compute are done.
  const std::int64_t on_time = std::max(host + kApiNs + kLaunchLatencyNs, gpu_free);
  const bool straggler = rank == spec.straggler_rank;
  plan.arrival = on_time + (straggler ? spec.straggler_delay_ns : 0);
  plan.all_reduce.name = kNcclAllReduceKernel;
  plan.all_reduce.stream = kCommunicationStream;
  plan.all_reduce.api_start =
      straggler ? std::max(host, plan.arrival - kLaunchLatencyNs - kApiNs) : host;
  plan.all_reduce.api_end = plan.all_reduce.api_start + kApiNs;
  plan.all_reduce.start = plan.arrival;
  return plan;
}

int HostOf(const RankReportsSpec& spec, int rank) { return rank / spec.ranks_per_host; }

std::int64_t HostOffset(const RankReportsSpec& spec, int host) {
  const auto index = static_cast<std::size_t>(host);
  return index < spec.host_clock_offset_ns.size() ? spec.host_clock_offset_ns[index] : 0;
}

std::string HexId(std::uint64_t a, std::uint64_t b, const char* prefix) {
  char text[64];
  std::snprintf(
      text, sizeof(text), "%s%08llx-%04llx-%04llx-%04llx-%012llx", prefix,
      static_cast<unsigned long long>(a >> 32), static_cast<unsigned long long>((a >> 16) & 0xffff),
      static_cast<unsigned long long>(a & 0xffff), static_cast<unsigned long long>(b >> 48),
      static_cast<unsigned long long>(b & 0xffff'ffff'ffffull));
  return text;
}

Status CheckSpec(const RankReportsSpec& spec) {
  if (spec.ranks < 1 || spec.ranks_per_host < 1 || spec.steps < 1 || spec.kernels_per_step < 0 ||
      spec.kernel_ns < 4 || spec.straggler_delay_ns < 0) {
    return Status::Error(
        "rank reports need ranks, ranks per host and steps >= 1, kernels per step >= 0, a "
        "kernel time >= 4 ns and a straggler delay >= 0");
  }
  return Status();
}

// Writes one rank's report. `step_begin` and `collective_end` are the true times of every
// step's begin and of its all-reduce's end, the same for all ranks.
class RankWriter {
 public:
  RankWriter(const RankReportsSpec& spec, int rank, ReportWriter& writer)
      : spec_(spec),
        rank_(rank),
        host_(HostOf(spec, rank)),
        local_rank_(rank % spec.ranks_per_host),
        offset_(HostOffset(spec, host_)),
        // Ranks start within half a millisecond of each other.
        start_(kJobStart +
               Jitter(Draw(spec.seed, static_cast<std::uint64_t>(rank), 0xabcd, 0), 500'000)),
        // Hosts booted an hour and more before the job, each at its own time.
        boot_(kJobStart - 3'600'000'000'000 - 97'000'000'000ll * host_),
        pid_(30000u + static_cast<std::uint32_t>(rank)),
        thread_(0x5c000000u + static_cast<std::uint32_t>(rank)),
        writer_(writer) {
    // process.end: the commit's time on this host's clock, after every row it holds. The
    // writer calls it until it is closed, which must happen while this object lives.
    writer_.set_clock([this] { return Shifted(commit_time_); });
  }

  void Write(const std::vector<std::int64_t>& step_begin,
             const std::vector<std::int64_t>& collective_end) {
    WriteProcess();
    // As the injection: right after the process record, the host pair only (inside the
    // driver's initialisation no context exists yet); GPU pairs from the first flush on.
    Sample(start_ + 1'000, /*gpu_pair=*/false);
    std::int64_t last_sample = start_;
    for (int step = 0; step < spec_.steps; ++step) {
      WriteStep(step, step_begin[step], collective_end[step]);
      const std::int64_t quiet = collective_end[step] + kStepGapNs / 2;
      if (quiet - last_sample >= kSampleEveryNs) {
        commit_time_ = quiet;
        Sample(quiet, /*gpu_pair=*/true);
        writer_.Flush();
        last_sample = quiet;
      }
    }
    commit_time_ = collective_end.back() + 1'000'000;
    Sample(commit_time_, /*gpu_pair=*/true);
  }

 private:
  model::Timestamp Shifted(std::int64_t true_time) const {
    return static_cast<model::Timestamp>(true_time + offset_);
  }

  void WriteProcess() {
    const std::string hostname = "node" + std::to_string(host_);
    const auto host = static_cast<std::uint64_t>(host_);
    const std::string boot_id =
        HexId(Draw(spec_.seed, 0xb007, host, 1), Draw(spec_.seed, 0xb007, host, 2), "");
    const std::string command = "python3 train.py --rank " + std::to_string(rank_);
    model::ProcessRecord process;
    process.pid = pid_;
    process.parent_pid = 29000u + static_cast<std::uint32_t>(host_);
    process.hostname = hostname;
    process.command_line = command;
    process.start = Shifted(start_);
    process.boot_id = boot_id;
    process.rank = rank_;
    process.local_rank = local_rank_;
    process.world_size = spec_.ranks;
    process.rank_variable = "RANK";
    writer_.OnProcess(process);

    const std::string uuid =
        HexId(Draw(spec_.seed, 0x6e0, host, static_cast<std::uint64_t>(local_rank_)),
              Draw(spec_.seed, 0x6e1, host, 0), "GPU-");
    model::DeviceRecord device = H200();
    device.id = static_cast<std::uint32_t>(local_rank_);
    device.uuid = uuid;
    writer_.OnDevice(device);
    writer_.OnContext({kContext, device.id, kComputeStream});
    writer_.OnStream({kComputeStream, kContext, 0, 0});
    writer_.OnStream({kCommunicationStream, kContext, -1, 1});
  }

  // The host pair and (`gpu_pair`) the rank's device, read just before the commit at true
  // time `when` (and after every row that commit holds). The GPU pair has the shape the
  // injection writes (cupti/tracing/gpu_clock.h): the host clocks at the middle of a kGpuReadWindowNs
  // window around the clock kernel, half of it as uncertainty, the GPU's timer with its own
  // offset from the host's clock (700 ns + 100 ns per local rank) and a drift of kGpuDriftPpm.
  void Sample(std::int64_t commit, bool gpu_pair) {
    // The GPU pair's window ends before the commit too.
    const std::int64_t when = commit - 1'000 - (gpu_pair ? kGpuReadWindowNs + 200 : 0);
    model::ClockSampleRecord host;
    host.cupti_ns = Shifted(when);
    host.realtime_ns = static_cast<std::int64_t>(Shifted(when)) + kRealtimeReadNs;
    host.monotonic_ns = when - boot_ + kRealtimeReadNs;
    writer_.OnClockSample(host);
    if (!gpu_pair) return;
    const std::int64_t middle = when + 200 + kGpuReadWindowNs / 2;
    model::ClockSampleRecord device;
    device.cupti_ns = Shifted(middle);
    device.realtime_ns = static_cast<std::int64_t>(device.cupti_ns) + kRealtimeReadNs;
    device.monotonic_ns = middle - boot_ + kRealtimeReadNs;
    device.device_id = static_cast<std::uint32_t>(local_rank_);
    device.gpu_ns = device.realtime_ns + GpuClockOffsetNs(local_rank_, middle - start_);
    device.gpu_uncertainty_ns = kGpuReadWindowNs / 2;
    writer_.OnClockSample(device);
  }

  void WriteLaunch(const Launch& launch, std::int64_t begin) {
    const std::uint32_t correlation = ++correlation_;
    model::ApiCallRecord api;
    api.domain = model::ApiDomain::kRuntime;
    api.cbid = kLaunchKernelCbid;
    api.name = "cudaLaunchKernel";
    api.start = Shifted(begin + launch.api_start);
    api.end = Shifted(begin + launch.api_end);
    api.process_id = pid_;
    api.thread_id = thread_;
    api.correlation_id = correlation;
    writer_.OnApiCall(api, /*nested_in_runtime=*/false);

    const bool all_reduce = launch.name == kNcclAllReduceKernel;
    model::KernelRecord kernel;
    kernel.start = Shifted(begin + launch.start);
    kernel.end = Shifted(begin + launch.end);
    kernel.device_id = static_cast<std::uint32_t>(local_rank_);
    kernel.context_id = kContext;
    kernel.stream_id = launch.stream;
    kernel.correlation_id = correlation;
    kernel.grid_id = ++grid_id_;
    kernel.grid_x = all_reduce ? 8 : (launch.name == kGemmKernel ? 132 : 1024);
    kernel.grid_y = kernel.grid_z = 1;
    kernel.block_x = all_reduce ? 640 : 256;
    kernel.block_y = kernel.block_z = 1;
    kernel.registers_per_thread = all_reduce ? 96 : 64;
    kernel.shared_memory_executed = 167936;
    kernel.mangled_name = launch.name;
    writer_.OnKernel(kernel);
  }

  void Range(std::string_view name, std::string_view domain, std::int64_t start, std::int64_t end) {
    model::NvtxRecord range;
    range.kind = model::NvtxKind::kPushPopRange;
    range.name = name;
    range.domain = domain;
    range.start = Shifted(start);
    range.end = Shifted(end);
    range.thread_id = thread_;
    range.process_id = pid_;
    writer_.OnNvtx(range);
  }

  void WriteStep(int step, std::int64_t begin, std::int64_t collective_end) {
    // Ranges first: they start before the launches they hold (rows go in about in start order).
    // The two passes draw the same plan, so the range can be written before the launches.
    const StepPlan plan = PlanStep(spec_, rank_, step, [](const Launch&) {});
    Range("step " + std::to_string(step), "", begin + plan.host_start, collective_end + 2'000);
    PlanStep(spec_, rank_, step, [&](const Launch& launch) { WriteLaunch(launch, begin); });
    if (!spec_.nccl) return;
    Launch all_reduce = plan.all_reduce;
    all_reduce.end = collective_end - begin;
    Range("ncclAllReduce", "NCCL", begin + all_reduce.api_start - 300,
          begin + all_reduce.api_end + 200);
    WriteLaunch(all_reduce, begin);
  }

  const RankReportsSpec& spec_;
  const int rank_;
  const int host_;
  const int local_rank_;
  const std::int64_t offset_;
  const std::int64_t start_;  // the process's start, true time
  const std::int64_t boot_;   // the host's boot, true time
  const std::uint32_t pid_;
  const std::uint32_t thread_;
  ReportWriter& writer_;
  std::int64_t commit_time_ = kJobStart;  // true time of the next commit
  std::uint32_t correlation_ = 0;
  std::int64_t grid_id_ = 0;
};

}  // namespace

std::string RankReportPath(const RankReportsSpec& spec, const std::string& dir, int rank) {
  const int width = static_cast<int>(std::to_string(std::max(spec.ranks - 1, 0)).size());
  char name[32];
  std::snprintf(name, sizeof(name), "rank%0*d.sqlite", width, rank);
  return dir + "/" + name;
}

StatusOr<std::vector<std::string>> TryWriteRankReports(const RankReportsSpec& spec,
                                                       const std::string& dir) {
  GPUSCOPE_RETURN_IF_ERROR(CheckSpec(spec));
  // True time of each step's begin and of its all-reduce's end: the latest arrival over all
  // ranks plus the all-reduce's own time. One pass over the plans of every rank, holding
  // only a number per step.
  const auto steps = static_cast<std::size_t>(spec.steps);
  std::vector<std::int64_t> latest_arrival(steps, 0);
  for (int rank = 0; rank < spec.ranks; ++rank) {
    for (int step = 0; step < spec.steps; ++step) {
      const StepPlan plan = PlanStep(spec, rank, step, [](const Launch&) {});
      std::int64_t& latest = latest_arrival[static_cast<std::size_t>(step)];
      latest = std::max(latest, plan.arrival);
    }
  }
  std::vector<std::int64_t> step_begin(steps), collective_end(steps);
  std::int64_t begin = kJobStart + kFirstStepAfter;
  for (std::size_t step = 0; step < steps; ++step) {
    step_begin[step] = begin;
    collective_end[step] = begin + latest_arrival[step] + spec.kernel_ns;
    begin = collective_end[step] + kStepGapNs;
  }

  std::vector<std::string> paths;
  for (int rank = 0; rank < spec.ranks; ++rank) {
    const std::string path = RankReportPath(spec, dir, rank);
    StatusOr<std::unique_ptr<ReportWriter>> created = ReportWriter::Create(path, spec.overwrite);
    if (!created.ok()) return created.status();
    RankWriter rank_writer(spec, rank, **created);
    rank_writer.Write(step_begin, collective_end);
    GPUSCOPE_RETURN_IF_ERROR((*created)->Close());
    paths.push_back(path);
  }
  return paths;
}

std::vector<std::string> WriteRankReports(const RankReportsSpec& spec, const std::string& dir) {
  StatusOr<std::vector<std::string>> written = TryWriteRankReports(spec, dir);
  if (written.ok()) return std::move(written.value());
  std::fprintf(stderr, "WriteRankReports: %s\n", written.status().message().c_str());
  return {};
}

}  // namespace gpuscope::store::testing

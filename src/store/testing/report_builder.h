// Writes a report through the production store::ReportWriter for tests that read reports
// back (export, viewer, trace rules, the CLI's printers): one call per record, with
// sensible defaults for everything a test does not care about.
//
// Times given to the shorthands (Kernel, Copy, Api, ...) are nanoseconds after the
// builder's origin; records passed whole (Write) keep their absolute times, and At() turns
// an offset into one. Correlation ids are handed out from 101 on unless a spec names one.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/profile_records.h"
#include "model/records.h"
#include "store/report_writer.h"
#include "util/status.h"

namespace gpuscope::store::testing {

// An absolute CUPTI time (CLOCK_REALTIME ns, November 2023): the default origin.
inline constexpr model::Timestamp kTraceOrigin = 1'700'000'000'000'000'000ull;
inline constexpr std::uint64_t kUs = 1'000;
inline constexpr std::uint64_t kMs = 1'000'000;
// CLOCK_MONOTONIC_RAW - CUPTI's clock on a host booted an hour before the origin.
inline constexpr std::int64_t kBootedAnHourBeforeOrigin =
    3'600'000'000'000 - static_cast<std::int64_t>(kTraceOrigin);

struct Dim3 {
  std::int32_t x = 1, y = 1, z = 1;
};

// A kernel launch; the defaults are a one-block launch of a warp on stream 7.
struct KernelSpec {
  std::string_view name = "_Z4workv";
  std::uint32_t stream = 7;
  std::uint32_t correlation = 0;  // 0: the next free one
  Dim3 grid = {1, 1, 1};
  Dim3 block = {32, 1, 1};
  std::uint16_t registers_per_thread = 0;
};

// A copy; host memory is the side that is not the device (both are device for DtoD).
struct CopySpec {
  model::CopyKind kind = model::CopyKind::kHtoD;
  model::MemoryKind host = model::MemoryKind::kPinned;
  bool is_async = true;
  std::uint64_t bytes = 1 << 20;
  std::uint32_t stream = 7;
  std::uint32_t correlation = 0;          // 0: the next free one
  std::uint32_t runtime_correlation = 0;  // of the runtime call, when a driver call copied
};

struct MemsetSpec {
  bool is_async = true;
  std::uint64_t bytes = 4096;
  std::uint32_t stream = 7;
  model::MemoryKind memory_kind = model::MemoryKind::kDevice;
  std::uint32_t correlation = 0;  // 0: the next free one
};

struct ApiSpec {
  model::ApiDomain domain = model::ApiDomain::kRuntime;
  bool nested_in_runtime = false;  // a driver call made by a runtime call
  std::uint32_t stack_id = 0;      // `--backtrace`: stack_frames.stack_id; 0: none
};

struct NvtxSpec {
  std::uint32_t id = 0;
  std::string_view domain = {};  // empty: the default domain
};

// A launch profiled with source counters (`profile --section SourceCounters`): its
// instruction values and the cubins they refer to. Its counter passes are not run (outcome
// "replay failed"), so no counter data waits for an evaluation with CUPTI's host API.
struct SourceLaunchSpec {
  std::string_view mangled_name = "_Z4workv";
  std::uint32_t profile_index = 0;
  std::uint32_t correlation = 0;  // 0: the next free one
  std::uint64_t start = 0;
  std::uint64_t duration = 1000;
  bool requested = true;          // false: the profile did not ask for source counters
  std::string_view message = {};  // why (some) source counters are missing
  std::vector<model::InstructionValue> values;
  std::vector<model::CubinImage> cubins;
};

class ReportBuilder {
 public:
  struct Options {
    model::Timestamp origin = kTraceOrigin;  // the process record's start
    std::uint32_t pid = 4242;  // of the process record and every API call and NVTX range
    std::uint32_t parent_pid = 1;
    std::uint32_t thread_id = 1;
    std::string_view command_line = "./app";
    std::string_view hostname = "node";
    bool overwrite = false;
    // Where the process stands in a multi-rank job (process.boot_id, rank, ...): unknown unless
    // set.
    std::string_view boot_id = {};
    std::optional<std::int64_t> rank = std::nullopt;
    std::optional<std::int64_t> local_rank = std::nullopt;
    std::optional<std::int64_t> world_size = std::nullopt;
    std::string_view rank_variable = {};  // defaults to "RANK" when a rank is set
  };

  explicit ReportBuilder(const std::string& path) : ReportBuilder(path, Options()) {}
  // Creates the report and writes the process record, as the collector does first.
  ReportBuilder(const std::string& path, Options options);
  ReportBuilder(const ReportBuilder&) = delete;
  ReportBuilder& operator=(const ReportBuilder&) = delete;

  // Why the report could not be created (every call below is then a no-op); after Close,
  // also the writer's first error.
  const Status& status() const { return status_; }
  // The absolute time `offset` ns after the origin, for records passed to Write.
  model::Timestamp At(std::uint64_t offset) const { return options_.origin + offset; }
  std::uint32_t NextCorrelation() { return ++correlation_; }

  // Shorthands with times after the origin; each returns the record's correlation id.
  std::uint32_t Kernel(std::uint64_t start, std::uint64_t duration, const KernelSpec& spec = {});
  // A kernel CUPTI gave no timestamps (start = end = 0).
  std::uint32_t UntimedKernel(const KernelSpec& spec = {});
  std::uint32_t Copy(std::uint64_t start, std::uint64_t duration, const CopySpec& spec = {});
  std::uint32_t Memset(std::uint64_t start, std::uint64_t duration, const MemsetSpec& spec = {});
  ReportBuilder& Api(std::string_view name, std::uint64_t start, std::uint64_t duration,
                     std::uint32_t correlation, const ApiSpec& spec = {});
  // A synchronous allocation or free of device memory (stream 0xFFFFFFFF).
  ReportBuilder& Memory(model::MemoryOp op, std::uint64_t time, std::uint64_t address,
                        std::uint64_t bytes, std::uint32_t correlation);
  ReportBuilder& Range(model::NvtxKind kind, std::string_view name, std::uint64_t start,
                       std::uint64_t duration, const NvtxSpec& spec = {});
  ReportBuilder& Mark(std::string_view name, std::uint64_t time, const NvtxSpec& spec = {});
  // A range that was started and never ended (end 0).
  ReportBuilder& OpenRange(model::NvtxKind kind, std::string_view name, std::uint64_t start,
                           const NvtxSpec& spec = {});
  // Marks the report as one of `gpuscope profile`: the launch `correlation` of "_Z4workv"
  // was replayed, and the replay failed (no counter data).
  ReportBuilder& ProfiledLaunch(std::uint32_t correlation, std::uint64_t start,
                                std::uint64_t duration);

  ReportBuilder& ProfiledSourceLaunch(const SourceLaunchSpec& spec);

  // A clock sample taken `offset` ns after the origin: CUPTI's clock there, CLOCK_REALTIME
  // `realtime_minus_cupti` ns ahead of it, CLOCK_MONOTONIC_RAW `monotonic_minus_cupti` ns from
  // it, and for a device (nullopt: the host pair) its GPU timestamp `gpu_minus_cupti` from it.
  ReportBuilder& ClockSample(std::uint64_t offset, std::int64_t realtime_minus_cupti = 0,
                             std::int64_t monotonic_minus_cupti = kBootedAnHourBeforeOrigin,
                             std::optional<std::uint32_t> device = std::nullopt,
                             std::int64_t gpu_minus_cupti = 0);

  // Whole records, times as given.
  ReportBuilder& Write(const model::DeviceRecord& record);
  ReportBuilder& Write(const model::ContextRecord& record);
  ReportBuilder& Write(const model::StreamRecord& record);
  ReportBuilder& Write(const model::KernelRecord& record);
  ReportBuilder& Write(const model::MemcpyRecord& record);
  ReportBuilder& Write(const model::MemsetRecord& record);
  ReportBuilder& Write(const model::ApiCallRecord& record, bool nested_in_runtime = false);
  ReportBuilder& Write(const model::MemoryRecord& record);
  ReportBuilder& Write(const model::SyncRecord& record);
  ReportBuilder& Write(const model::NvtxRecord& record);
  ReportBuilder& Write(const model::OverheadRecord& record);
  ReportBuilder& Write(const model::ProfiledKernelRecord& record);
  ReportBuilder& Write(const model::ClockSampleRecord& record);
  ReportBuilder& Write(const model::CollectionCounters& counters);
  // `--backtrace`: a stack (the frames' strings must outlive Close) and a module.
  ReportBuilder& Write(const model::StackRecord& record);
  ReportBuilder& Write(const model::ModuleRecord& record);
  ReportBuilder& Write(const model::GpuMetricRecord& record);
  ReportBuilder& Write(const model::GpuMetricSamplingRecord& record);

  // GPU metrics (`run --gpu-metrics`): the metrics of `device`, by label, unit and role (names
  // "metric0", ...), then samples of them with times after the origin.
  struct GpuMetricSpec {
    std::string_view label;
    std::string_view unit = "%";
    std::uint8_t role = 0;
  };
  ReportBuilder& GpuMetrics(std::uint32_t device, const std::vector<GpuMetricSpec>& metrics);
  ReportBuilder& GpuMetricSample(std::uint32_t device, std::uint64_t start, std::uint64_t duration,
                                 const std::vector<double>& values);

  // Flushes and closes the report; returns the first error.
  Status Close();

 private:
  std::string_view Keep(std::string_view text);
  model::KernelRecord KernelOf(const KernelSpec& spec);
  std::uint32_t CorrelationOr(std::uint32_t given) {
    return given != 0 ? given : NextCorrelation();
  }

  Options options_;
  Status status_;
  std::unique_ptr<ReportWriter> writer_;
  std::deque<std::string> strings_;  // names outlive the writer's calls
  std::uint32_t correlation_ = 100;
};

}  // namespace gpuscope::store::testing

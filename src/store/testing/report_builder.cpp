#include "store/testing/report_builder.h"

#include <utility>

namespace gpuscope::store::testing {

ReportBuilder::ReportBuilder(const std::string& path, Options options) : options_(options) {
  StatusOr<std::unique_ptr<ReportWriter>> created = ReportWriter::Create(path, options.overwrite);
  if (created.ok()) {
    writer_ = std::move(created.value());
    model::ProcessRecord process;
    process.pid = options_.pid;
    process.parent_pid = options_.parent_pid;
    process.hostname = Keep(options_.hostname);
    process.command_line = Keep(options_.command_line);
    process.start = options_.origin;
    process.boot_id = Keep(options_.boot_id);
    process.rank = options_.rank;
    process.local_rank = options_.local_rank;
    process.world_size = options_.world_size;
    const bool default_variable = options_.rank_variable.empty() && options_.rank.has_value();
    process.rank_variable = Keep(default_variable ? "RANK" : options_.rank_variable);
    writer_->OnProcess(process);
  } else {
    status_ = created.status();
  }
}

std::string_view ReportBuilder::Keep(std::string_view text) {
  // Views the caller passed may not outlive this call; the writer reads names when it
  // batches rows, so the builder keeps its own copies. Empty stays a null view, as a
  // record's unset name is.
  if (text.empty()) return {};
  return strings_.emplace_back(text);
}

std::uint32_t ReportBuilder::Kernel(std::uint64_t start, std::uint64_t duration,
                                    const KernelSpec& spec) {
  model::KernelRecord kernel = KernelOf(spec);
  kernel.start = At(start);
  kernel.end = kernel.start + duration;
  Write(kernel);
  return kernel.correlation_id;
}

std::uint32_t ReportBuilder::UntimedKernel(const KernelSpec& spec) {
  model::KernelRecord kernel = KernelOf(spec);  // start and end stay 0
  Write(kernel);
  return kernel.correlation_id;
}

model::KernelRecord ReportBuilder::KernelOf(const KernelSpec& spec) {
  model::KernelRecord kernel;
  kernel.stream_id = spec.stream;
  kernel.correlation_id = CorrelationOr(spec.correlation);
  kernel.grid_x = spec.grid.x;
  kernel.grid_y = spec.grid.y;
  kernel.grid_z = spec.grid.z;
  kernel.block_x = spec.block.x;
  kernel.block_y = spec.block.y;
  kernel.block_z = spec.block.z;
  kernel.registers_per_thread = spec.registers_per_thread;
  kernel.mangled_name = Keep(spec.name);
  return kernel;
}

std::uint32_t ReportBuilder::Copy(std::uint64_t start, std::uint64_t duration,
                                  const CopySpec& spec) {
  model::MemcpyRecord copy;
  copy.start = At(start);
  copy.end = copy.start + duration;
  copy.stream_id = spec.stream;
  copy.correlation_id = CorrelationOr(spec.correlation);
  copy.runtime_correlation_id = spec.runtime_correlation;
  copy.copy_kind = spec.kind;
  const bool to_device = spec.kind == model::CopyKind::kHtoD;
  copy.src_kind = to_device ? spec.host : model::MemoryKind::kDevice;
  copy.dst_kind = to_device ? model::MemoryKind::kDevice : spec.host;
  if (spec.kind == model::CopyKind::kDtoD) copy.dst_kind = model::MemoryKind::kDevice;
  copy.is_async = spec.is_async;
  copy.bytes = spec.bytes;
  Write(copy);
  return copy.correlation_id;
}

std::uint32_t ReportBuilder::Memset(std::uint64_t start, std::uint64_t duration,
                                    const MemsetSpec& spec) {
  model::MemsetRecord memset;
  memset.start = At(start);
  memset.end = memset.start + duration;
  memset.stream_id = spec.stream;
  memset.correlation_id = CorrelationOr(spec.correlation);
  memset.memory_kind = spec.memory_kind;
  memset.is_async = spec.is_async;
  memset.bytes = spec.bytes;
  Write(memset);
  return memset.correlation_id;
}

ReportBuilder& ReportBuilder::Api(std::string_view name, std::uint64_t start,
                                  std::uint64_t duration, std::uint32_t correlation,
                                  const ApiSpec& spec) {
  model::ApiCallRecord call;
  call.domain = spec.domain;
  call.name = Keep(name);
  call.start = At(start);
  call.end = call.start + duration;
  call.process_id = options_.pid;
  call.thread_id = options_.thread_id;
  call.correlation_id = correlation;
  call.stack_id = spec.stack_id;
  return Write(call, spec.nested_in_runtime);
}

ReportBuilder& ReportBuilder::Memory(model::MemoryOp op, std::uint64_t time, std::uint64_t address,
                                     std::uint64_t bytes, std::uint32_t correlation) {
  model::MemoryRecord record;
  record.timestamp = At(time);
  record.op = op;
  record.memory_kind = model::MemoryKind::kDevice;
  record.address = address;
  record.bytes = bytes;
  record.stream_id = 0xFFFFFFFF;
  record.correlation_id = correlation;
  return Write(record);
}

ReportBuilder& ReportBuilder::Range(model::NvtxKind kind, std::string_view name,
                                    std::uint64_t start, std::uint64_t duration,
                                    const NvtxSpec& spec) {
  model::NvtxRecord range;
  range.kind = kind;
  range.name = Keep(name);
  range.domain = Keep(spec.domain);
  range.start = At(start);
  range.end = range.start + duration;
  range.id = spec.id;
  range.thread_id = options_.thread_id;
  range.process_id = options_.pid;
  return Write(range);
}

ReportBuilder& ReportBuilder::Mark(std::string_view name, std::uint64_t time,
                                   const NvtxSpec& spec) {
  return Range(model::NvtxKind::kMark, name, time, 0, spec);
}

ReportBuilder& ReportBuilder::OpenRange(model::NvtxKind kind, std::string_view name,
                                        std::uint64_t start, const NvtxSpec& spec) {
  model::NvtxRecord range;
  range.kind = kind;
  range.name = Keep(name);
  range.domain = Keep(spec.domain);
  range.start = At(start);
  range.end = 0;
  range.id = spec.id;
  range.thread_id = options_.thread_id;
  range.process_id = options_.pid;
  return Write(range);
}

ReportBuilder& ReportBuilder::ProfiledLaunch(std::uint32_t correlation, std::uint64_t start,
                                             std::uint64_t duration) {
  model::ProfiledKernelRecord record;
  record.correlation_id = correlation;
  record.start = At(start);
  record.end = record.start + duration;
  record.mangled_name = "_Z4workv";
  record.chip = "GH100";
  record.passes = 40;
  record.outcome = model::ProfileOutcome::kReplayFailed;
  record.message = "not measured (test)";
  return Write(record);
}

ReportBuilder& ReportBuilder::ProfiledSourceLaunch(const SourceLaunchSpec& spec) {
  model::ProfiledKernelRecord record;
  record.correlation_id = CorrelationOr(spec.correlation);
  record.profile_index = spec.profile_index;
  record.start = At(spec.start);
  record.end = record.start + spec.duration;
  record.mangled_name = Keep(spec.mangled_name);
  record.chip = "GH100";
  record.passes = 40;
  record.outcome = model::ProfileOutcome::kReplayFailed;
  record.message = "counter passes not run (test)";
  record.source.requested = spec.requested;
  record.source.message = spec.message;
  record.instruction_values = spec.values;
  record.cubins = spec.cubins;
  return Write(record);
}

ReportBuilder& ReportBuilder::ClockSample(std::uint64_t offset, std::int64_t realtime_minus_cupti,
                                          std::int64_t monotonic_minus_cupti,
                                          std::optional<std::uint32_t> device,
                                          std::int64_t gpu_minus_cupti) {
  model::ClockSampleRecord sample;
  sample.cupti_ns = At(offset);
  const auto cupti = static_cast<std::int64_t>(sample.cupti_ns);
  sample.realtime_ns = cupti + realtime_minus_cupti;
  sample.monotonic_ns = cupti + monotonic_minus_cupti;
  sample.device_id = device;
  if (device.has_value()) sample.gpu_ns = cupti + gpu_minus_cupti;
  return Write(sample);
}

ReportBuilder& ReportBuilder::Write(const model::DeviceRecord& record) {
  if (writer_) writer_->OnDevice(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::ContextRecord& record) {
  if (writer_) writer_->OnContext(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::StreamRecord& record) {
  if (writer_) writer_->OnStream(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::KernelRecord& record) {
  if (writer_) writer_->OnKernel(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::MemcpyRecord& record) {
  if (writer_) writer_->OnMemcpy(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::MemsetRecord& record) {
  if (writer_) writer_->OnMemset(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::ApiCallRecord& record, bool nested_in_runtime) {
  if (writer_) writer_->OnApiCall(record, nested_in_runtime);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::StackRecord& record) {
  if (writer_) writer_->OnStack(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::ModuleRecord& record) {
  if (writer_) writer_->OnModule(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::MemoryRecord& record) {
  if (writer_) writer_->OnMemory(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::SyncRecord& record) {
  if (writer_) writer_->OnSync(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::NvtxRecord& record) {
  if (writer_) writer_->OnNvtx(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::OverheadRecord& record) {
  if (writer_) writer_->OnOverhead(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::ProfiledKernelRecord& record) {
  if (writer_) writer_->OnProfiledKernel(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::ClockSampleRecord& record) {
  if (writer_) writer_->OnClockSample(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::GpuMetricRecord& record) {
  if (writer_) writer_->OnGpuMetric(record);
  return *this;
}
ReportBuilder& ReportBuilder::Write(const model::GpuMetricSamplingRecord& record) {
  if (writer_) writer_->OnGpuMetricSampling(record);
  return *this;
}

ReportBuilder& ReportBuilder::GpuMetrics(std::uint32_t device,
                                         const std::vector<GpuMetricSpec>& metrics) {
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    std::string name = "metric" + std::to_string(i);
    Write(model::GpuMetricRecord{device, static_cast<std::uint32_t>(i), name, metrics[i].label,
                                 metrics[i].unit, metrics[i].role});
  }
  return *this;
}

ReportBuilder& ReportBuilder::GpuMetricSample(std::uint32_t device, std::uint64_t start,
                                              std::uint64_t duration,
                                              const std::vector<double>& values) {
  if (writer_) {
    writer_->OnGpuMetricSample({device, At(start), At(start + duration), values});
  }
  return *this;
}

ReportBuilder& ReportBuilder::Write(const model::CollectionCounters& counters) {
  if (writer_) writer_->OnCounters(counters);
  return *this;
}

Status ReportBuilder::Close() {
  if (!writer_) return status_;
  writer_->Flush();
  Status closed = writer_->Close();
  writer_.reset();
  if (status_.ok()) status_ = closed;
  return status_;
}

}  // namespace gpuscope::store::testing

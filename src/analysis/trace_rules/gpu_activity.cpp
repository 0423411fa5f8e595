#include "analysis/trace_rules/gpu_activity.h"

namespace gpuscope::analysis::trace_rules {

const char* ActivityTable(ActivityKind kind) {
  switch (kind) {
    case ActivityKind::kKernel:
      return "kernels";
    case ActivityKind::kMemcpy:
      return "memcpys";
    case ActivityKind::kMemset:
      return "memsets";
  }
  return "?";
}

GpuActivity FromKernel(const model::KernelRecord& record) {
  GpuActivity activity;
  activity.kind = ActivityKind::kKernel;
  activity.start = record.start;
  activity.end = record.end;
  activity.device_id = record.device_id;
  activity.stream_id = record.stream_id;
  activity.correlation_id = record.correlation_id;
  activity.kernel_name = record.mangled_name;
  activity.is_async = true;  // a launch never waits for the kernel
  return activity;
}

GpuActivity FromMemcpy(const model::MemcpyRecord& record) {
  GpuActivity activity;
  activity.kind = ActivityKind::kMemcpy;
  activity.start = record.start;
  activity.end = record.end;
  activity.device_id = record.device_id;
  activity.stream_id = record.stream_id;
  activity.correlation_id = record.correlation_id;
  activity.is_async = record.is_async;
  activity.bytes = record.bytes;
  activity.copy_kind = record.copy_kind;
  activity.src_kind = record.src_kind;
  activity.dst_kind = record.dst_kind;
  return activity;
}

GpuActivity FromMemset(const model::MemsetRecord& record) {
  GpuActivity activity;
  activity.kind = ActivityKind::kMemset;
  activity.start = record.start;
  activity.end = record.end;
  activity.device_id = record.device_id;
  activity.stream_id = record.stream_id;
  activity.correlation_id = record.correlation_id;
  activity.is_async = record.is_async;
  activity.bytes = record.bytes;
  activity.dst_kind = record.memory_kind;
  return activity;
}

}  // namespace gpuscope::analysis::trace_rules

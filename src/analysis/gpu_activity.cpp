#include "analysis/gpu_activity.h"

namespace gpuscope::analysis {

const char* ActivityTable(GpuActivityKind kind) {
  switch (kind) {
    case GpuActivityKind::kKernel:
      return "kernels";
    case GpuActivityKind::kMemcpy:
      return "memcpys";
    case GpuActivityKind::kMemset:
      return "memsets";
  }
  return "?";
}

namespace {

// What every kernel, copy and memset record has alike.
template <typename Record>
GpuActivity Common(GpuActivityKind kind, const Record& record) {
  GpuActivity activity;
  activity.kind = kind;
  activity.start = record.start;
  activity.end = record.end;
  activity.device_id = record.device_id;
  activity.context_id = record.context_id;
  activity.stream_id = record.stream_id;
  activity.correlation_id = record.correlation_id;
  return activity;
}

}  // namespace

GpuActivity FromKernel(const model::KernelRecord& record) {
  GpuActivity activity = Common(GpuActivityKind::kKernel, record);
  activity.kernel_name = record.mangled_name;
  activity.grid[0] = record.grid_x;
  activity.grid[1] = record.grid_y;
  activity.grid[2] = record.grid_z;
  activity.block[0] = record.block_x;
  activity.block[1] = record.block_y;
  activity.block[2] = record.block_z;
  activity.registers = record.registers_per_thread;
  activity.static_shared_memory = record.static_shared_memory;
  activity.dynamic_shared_memory = record.dynamic_shared_memory;
  activity.is_async = true;  // a launch never waits for the kernel
  return activity;
}

GpuActivity FromMemcpy(const model::MemcpyRecord& record) {
  GpuActivity activity = Common(GpuActivityKind::kMemcpy, record);
  activity.is_async = record.is_async;
  activity.bytes = record.bytes;
  activity.copy_kind = record.copy_kind;
  activity.src_kind = record.src_kind;
  activity.dst_kind = record.dst_kind;
  return activity;
}

GpuActivity FromMemset(const model::MemsetRecord& record) {
  GpuActivity activity = Common(GpuActivityKind::kMemset, record);
  activity.is_async = record.is_async;
  activity.bytes = record.bytes;
  activity.dst_kind = record.memory_kind;
  return activity;
}

}  // namespace gpuscope::analysis

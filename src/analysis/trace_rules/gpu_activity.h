// Kernels, copies and memsets as one kind of row, so that rules about the GPU's timeline see
// them in one start-ordered stream.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/records.h"

namespace gpuscope::analysis::trace_rules {

enum class ActivityKind : std::uint8_t { kKernel, kMemcpy, kMemset };

struct GpuActivity {
  ActivityKind kind = ActivityKind::kKernel;
  model::Timestamp start = 0;
  model::Timestamp end = 0;
  std::uint32_t device_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  // Kernels only: the mangled name, in the reader's string table (valid while it is open).
  std::string_view kernel_name;
  // Copies and memsets only.
  bool is_async = false;
  std::uint64_t bytes = 0;
  model::CopyKind copy_kind = model::CopyKind::kUnknown;
  model::MemoryKind src_kind = model::MemoryKind::kUnknown;
  model::MemoryKind dst_kind = model::MemoryKind::kUnknown;

  std::uint64_t duration_ns() const { return end > start ? end - start : 0; }
};

// The report table the activity came from, as cited rows name it.
const char* ActivityTable(ActivityKind kind);

GpuActivity FromKernel(const model::KernelRecord& record);
GpuActivity FromMemcpy(const model::MemcpyRecord& record);
GpuActivity FromMemset(const model::MemsetRecord& record);

}  // namespace gpuscope::analysis::trace_rules

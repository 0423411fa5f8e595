// Kernels, copies and memsets as one kind of row: the rules about the GPU's timeline see them
// in one start-ordered stream, and nvprof's GPU trace prints them in one. Trivially copyable
// and owning no strings, so that rows can be spilled to a file while streams are merged
// (spill_merge.h).
#pragma once

#include <cstdint>
#include <string_view>

#include "model/records.h"

namespace gpuscope::analysis {

enum class GpuActivityKind : std::uint8_t { kKernel, kMemcpy, kMemset };

struct GpuActivity {
  GpuActivityKind kind = GpuActivityKind::kKernel;
  model::Timestamp start = 0;
  model::Timestamp end = 0;
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  // Which of several reports the row came from (0 where there is one).
  std::uint32_t report = 0;

  // Kernels only. The mangled name is a view into the reader's string table, valid while the
  // report is open; `name_group` is the caller's index for it where names are grouped
  // (NameGroups), 0 otherwise.
  std::string_view kernel_name;
  std::uint32_t name_group = 0;
  std::int32_t grid[3] = {0, 0, 0};
  std::int32_t block[3] = {0, 0, 0};
  std::int32_t static_shared_memory = 0;
  std::int32_t dynamic_shared_memory = 0;
  std::uint16_t registers = 0;

  // Copies and memsets only. A memset's memory is its destination (`dst_kind`).
  bool is_async = false;
  std::uint64_t bytes = 0;
  model::CopyKind copy_kind = model::CopyKind::kUnknown;
  model::MemoryKind src_kind = model::MemoryKind::kUnknown;
  model::MemoryKind dst_kind = model::MemoryKind::kUnknown;

  std::uint64_t duration_ns() const { return end > start ? end - start : 0; }
};

// The report table the activity came from, as cited rows name it.
const char* ActivityTable(GpuActivityKind kind);

GpuActivity FromKernel(const model::KernelRecord& record);
GpuActivity FromMemcpy(const model::MemcpyRecord& record);
GpuActivity FromMemset(const model::MemsetRecord& record);

}  // namespace gpuscope::analysis

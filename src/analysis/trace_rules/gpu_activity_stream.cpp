#include "analysis/trace_rules/gpu_activity_stream.h"

#include <memory>
#include <optional>

#include "analysis/trace_rules/side_table.h"

namespace gpuscope::analysis::trace_rules {
namespace {

using ActivityQueue = RowQueue<GpuActivity>;

bool Timed(const GpuActivity& activity) {
  return activity.start != 0 && activity.end >= activity.start;
}

// Hands `fn` every queued row that starts before `limit` (all rows when nullopt), taking
// copies before memsets on equal starts.
void DrainBefore(std::optional<model::Timestamp> limit, ActivityQueue& copies,
                 ActivityQueue& memsets, const std::function<void(const GpuActivity&)>& fn) {
  for (;;) {
    std::optional<GpuActivity> copy = copies.Peek();
    std::optional<GpuActivity> memset = memsets.Peek();
    ActivityQueue* next = nullptr;
    const GpuActivity* row = nullptr;
    if (copy && (!memset || copy->start <= memset->start)) {
      next = &copies;
      row = &*copy;
    } else if (memset) {
      next = &memsets;
      row = &*memset;
    }
    if (row == nullptr || (limit && row->start >= *limit)) return;
    if (Timed(*row)) fn(*row);
    next->Pop();
  }
}

}  // namespace

Status ForEachGpuActivity(const store::ReportReader& reader,
                          const std::function<void(const GpuActivity&)>& fn) {
  StatusOr<std::unique_ptr<store::ReportReader>> copy_reader =
      store::ReportReader::Open(reader.path());
  if (!copy_reader.ok()) return copy_reader.status();
  StatusOr<std::unique_ptr<store::ReportReader>> memset_reader =
      store::ReportReader::Open(reader.path());
  if (!memset_reader.ok()) return memset_reader.status();

  SideTable<GpuActivity> copies(
      std::move(copy_reader.value()), [](const store::ReportReader& side, ActivityQueue& queue) {
        return side.ForEachMemcpy(
            [&](const model::MemcpyRecord& record) { return queue.Push(FromMemcpy(record)); });
      });
  SideTable<GpuActivity> memsets(
      std::move(memset_reader.value()), [](const store::ReportReader& side, ActivityQueue& queue) {
        return side.ForEachMemset(
            [&](const model::MemsetRecord& record) { return queue.Push(FromMemset(record)); });
      });
  Status kernels = reader.ForEachKernel([&](const store::KernelRow& row) {
    GpuActivity kernel = FromKernel(row.record);
    if (!Timed(kernel)) return true;
    DrainBefore(kernel.start, copies.queue(), memsets.queue(), fn);
    fn(kernel);
    return true;
  });
  GPUSCOPE_RETURN_IF_ERROR(kernels);
  DrainBefore(std::nullopt, copies.queue(), memsets.queue(), fn);
  GPUSCOPE_RETURN_IF_ERROR(copies.queue().status());
  return memsets.queue().status();
}

}  // namespace gpuscope::analysis::trace_rules

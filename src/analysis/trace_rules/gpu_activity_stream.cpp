#include "analysis/trace_rules/gpu_activity_stream.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace gpuscope::analysis::trace_rules {
namespace {

// Rows in flight per side table: enough to keep the producer busy while the merge works,
// small enough not to matter (~64 bytes each).
constexpr std::size_t kQueueCapacity = 4096;

bool Timed(const GpuActivity& activity) {
  return activity.start != 0 && activity.end >= activity.start;
}

// One producer (a reader thread), one consumer (the merge).
class ActivityQueue {
 public:
  // False when the consumer has gone: the producer stops reading.
  bool Push(const GpuActivity& activity) {
    std::unique_lock<std::mutex> lock(mutex_);
    space_.wait(lock, [&] { return rows_.size() < kQueueCapacity || abandoned_; });
    if (abandoned_) return false;
    rows_.push_back(activity);
    filled_.notify_one();
    return true;
  }
  void Close(Status status) {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    status_ = std::move(status);
    filled_.notify_one();
  }
  void Abandon() {
    std::lock_guard<std::mutex> lock(mutex_);
    abandoned_ = true;
    space_.notify_one();
  }
  // The next row, waiting for the producer; nullopt once the table is exhausted.
  std::optional<GpuActivity> Peek() {
    std::unique_lock<std::mutex> lock(mutex_);
    filled_.wait(lock, [&] { return !rows_.empty() || closed_; });
    if (rows_.empty()) return std::nullopt;
    return rows_.front();
  }
  void Pop() {
    std::lock_guard<std::mutex> lock(mutex_);
    rows_.pop_front();
    space_.notify_one();
  }
  Status status() {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable filled_;
  std::condition_variable space_;
  std::deque<GpuActivity> rows_;
  bool closed_ = false;
  bool abandoned_ = false;
  Status status_;
};

// A side table read on its own thread through its own reader.
class SideTable {
 public:
  // `read` streams the table of `reader` into the queue.
  template <typename Read>
  SideTable(std::unique_ptr<store::ReportReader> reader, Read read) : reader_(std::move(reader)) {
    thread_ = std::thread([this, read] { queue_.Close(read(*reader_, queue_)); });
  }
  ~SideTable() {
    queue_.Abandon();
    thread_.join();
  }
  ActivityQueue& queue() { return queue_; }

 private:
  std::unique_ptr<store::ReportReader> reader_;
  ActivityQueue queue_;
  std::thread thread_;
};

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

  SideTable copies(
      std::move(copy_reader.value()), [](const store::ReportReader& side, ActivityQueue& queue) {
        return side.ForEachMemcpy(
            [&](const model::MemcpyRecord& record) { return queue.Push(FromMemcpy(record)); });
      });
  SideTable memsets(
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

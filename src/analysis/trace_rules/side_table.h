// One table of a report read on its own thread, handed to the thread that merges it with
// other tables through a small bounded queue.
//
// The reader streams each table in start order, but only one table per call, and a reader
// is used by one thread at a time: merging tables without holding one in memory takes one
// more reader of the same file per extra table, each on its own thread. Memory stays bounded
// by the queues whatever the report's size.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis::trace_rules {

// Rows in flight per side table: enough to keep the producer busy while the merge works,
// small enough not to matter (~64 bytes each).
inline constexpr std::size_t kSideQueueCapacity = 4096;

// One producer (a reader thread), one consumer (the merge).
template <typename Row>
class RowQueue {
 public:
  // False when the consumer has gone: the producer stops reading.
  bool Push(const Row& row) {
    std::unique_lock<std::mutex> lock(mutex_);
    space_.wait(lock, [&] { return rows_.size() < kSideQueueCapacity || abandoned_; });
    if (abandoned_) return false;
    rows_.push_back(row);
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
  std::optional<Row> Peek() {
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
  std::deque<Row> rows_;
  bool closed_ = false;
  bool abandoned_ = false;
  Status status_;
};

// A side table read on its own thread through its own reader.
template <typename Row>
class SideTable {
 public:
  // `read(reader, queue)` streams the table of `reader` into the queue and returns the
  // reader's status.
  template <typename Read>
  SideTable(std::unique_ptr<store::ReportReader> reader, Read read) : reader_(std::move(reader)) {
    thread_ = std::thread([this, read] { queue_.Close(read(*reader_, queue_)); });
  }
  ~SideTable() {
    queue_.Abandon();
    thread_.join();
  }
  SideTable(const SideTable&) = delete;
  SideTable& operator=(const SideTable&) = delete;
  RowQueue<Row>& queue() { return queue_; }
  // The side reader, for what it counted (damaged rows): only once the queue has been read
  // to its end (Peek returned nullopt), when its thread is done with it.
  const store::ReportReader& reader() const { return *reader_; }

 private:
  std::unique_ptr<store::ReportReader> reader_;
  RowQueue<Row> queue_;
  std::thread thread_;
};

}  // namespace gpuscope::analysis::trace_rules

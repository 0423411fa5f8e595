// Merging several start-ordered row streams into one start-ordered stream, with bounded
// memory, when the reader can only push rows (ForEach callbacks), never be pulled.
//
// The traces print kernels, copies and memsets of several reports in one start order.
// Each stream is already in start order, so a k-way merge suffices, but a merge must pull
// from every stream. The way out: every stream but one (the "driver", the largest) is
// first copied into a SpillRun (memory up to one chunk, a temporary file beyond); then the
// driver is pushed through its ForEach, and before each of its rows the merged spilled
// rows that start earlier are emitted. Memory stays at one chunk per stream however many
// rows there are; the driver's rows are never stored at all.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <queue>
#include <string>
#include <type_traits>
#include <vector>

#include "analysis/duration_stats.h"
#include "util/status.h"

namespace gpuscope::analysis {

// Rows of one stream, in the order appended. Row must be trivially copyable (it is
// written to a file as bytes) and have a `start` member (the merge key).
template <typename Row>
class SpillRun {
  static_assert(std::is_trivially_copyable_v<Row>);

 public:
  // Rows kept in memory before a chunk goes to the temporary file; ~200 KB for trace rows.
  static constexpr std::size_t kChunkRows = 2048;

  Status Append(const Row& row) {
    chunk_.push_back(row);
    if (chunk_.size() == kChunkRows) return WriteChunk();
    return Status();
  }

  std::uint64_t size() const { return spilled_rows_ + chunk_.size(); }

  // Ends appending; rows are then read back from the first one with Next().
  Status Rewind() {
    if (file_ == nullptr) {
      memory_only_ = true;
      next_in_chunk_ = 0;
      return Status();
    }
    GPUSCOPE_RETURN_IF_ERROR(WriteChunk());
    if (std::fseek(file_.get(), 0, SEEK_SET) != 0) {
      return Status::Error("cannot rewind the temporary trace file: " +
                           std::string(std::strerror(errno)));
    }
    rows_left_in_file_ = spilled_rows_;
    chunk_.clear();
    next_in_chunk_ = 0;
    return Status();
  }

  // Copies the next row into *row; false after the last row or on an error (see status).
  bool Next(Row* row) {
    if (next_in_chunk_ == chunk_.size()) {
      if (memory_only_ || rows_left_in_file_ == 0 || !ReadChunk()) return false;
    }
    *row = chunk_[next_in_chunk_++];
    return true;
  }

  const Status& status() const { return status_; }

 private:
  struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };

  Status WriteChunk() {
    if (chunk_.empty()) return Status();
    if (file_ == nullptr) {
      // tmpfile(): deleted by the system when closed or when the process ends.
      file_.reset(std::tmpfile());
      if (file_ == nullptr) {
        return Status::Error("cannot create a temporary file to merge the trace: " +
                             std::string(std::strerror(errno)));
      }
    }
    if (std::fwrite(chunk_.data(), sizeof(Row), chunk_.size(), file_.get()) != chunk_.size()) {
      return Status::Error("cannot write the temporary trace file (disk full?): " +
                           std::string(std::strerror(errno)));
    }
    spilled_rows_ += chunk_.size();
    chunk_.clear();
    return Status();
  }

  bool ReadChunk() {
    std::size_t count = rows_left_in_file_ < kChunkRows ? rows_left_in_file_ : kChunkRows;
    chunk_.resize(count);
    if (std::fread(chunk_.data(), sizeof(Row), count, file_.get()) != count) {
      status_ = Status::Error("cannot read the temporary trace file back");
      chunk_.clear();
      rows_left_in_file_ = 0;
      return false;
    }
    rows_left_in_file_ -= count;
    next_in_chunk_ = 0;
    return true;
  }

  std::vector<Row> chunk_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::uint64_t spilled_rows_ = 0;
  std::uint64_t rows_left_in_file_ = 0;
  std::size_t next_in_chunk_ = 0;
  bool memory_only_ = false;
  Status status_;
};

// A start-ordered merge of rewound SpillRuns. Ties go to the run added first, so the
// output does not depend on anything but the input.
template <typename Row>
class SpilledMerge {
 public:
  explicit SpilledMerge(std::vector<SpillRun<Row>>* runs) : runs_(runs) {}

  // Rewinds every run and reads its first row.
  Status Start() {
    heads_.resize(runs_->size());
    for (std::size_t i = 0; i < runs_->size(); ++i) {
      GPUSCOPE_RETURN_IF_ERROR((*runs_)[i].Rewind());
      Pull(i);
      GPUSCOPE_RETURN_IF_ERROR((*runs_)[i].status());
    }
    return Status();
  }

  // Emits, in merged order, every remaining row whose start is below `limit`.
  template <typename Emit>
  Status EmitBefore(std::uint64_t limit, Emit&& emit) {
    return EmitWhile([limit](std::uint64_t start) { return start < limit; }, emit);
  }

  template <typename Emit>
  Status EmitAll(Emit&& emit) {
    return EmitWhile([](std::uint64_t) { return true; }, emit);
  }

 private:
  struct Head {
    std::uint64_t start;
    std::size_t run;
    bool operator>(const Head& other) const {
      return start != other.start ? start > other.start : run > other.run;
    }
  };

  template <typename Condition, typename Emit>
  Status EmitWhile(Condition&& condition, Emit& emit) {
    while (!queue_.empty() && condition(queue_.top().start)) {
      std::size_t run = queue_.top().run;
      queue_.pop();
      emit(heads_[run]);
      Pull(run);
      GPUSCOPE_RETURN_IF_ERROR((*runs_)[run].status());
    }
    return Status();
  }

  void Pull(std::size_t run) {
    if ((*runs_)[run].Next(&heads_[run])) queue_.push({heads_[run].start, run});
  }

  std::vector<SpillRun<Row>>* runs_;
  std::vector<Row> heads_;
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> queue_;
};

// The whole merge (rows need `start` and `end`): streams 0..stream_count-1, each read with
// `for_each_stream(index, sink)` (sink returns false to stop; rows in start order), are
// emitted in one start order through `emit(row, base)`, where `base` (the zero of nvprof's
// Start column) is `origin` - the profiling start, render/trace_origin.h - or the earliest timed
// start of all streams if that is earlier (UINT64_MAX: always the earliest start). Every
// stream but `driver` is spilled first; the driver is read last, once, and never stored.
template <typename Row, typename ForEachStream, typename Emit>
Status MergeStartOrdered(std::size_t stream_count, std::size_t driver, std::uint64_t origin,
                         ForEachStream&& for_each_stream, Emit&& emit) {
  std::vector<SpillRun<Row>> runs(stream_count > 0 ? stream_count - 1 : 0);
  std::uint64_t earliest = origin;
  Status append_status;
  for (std::size_t i = 0, run = 0; i < stream_count; ++i) {
    if (i == driver) continue;
    SpillRun<Row>& spill = runs[run++];
    GPUSCOPE_RETURN_IF_ERROR(for_each_stream(i, [&](const Row& row) {
      if (HasTimestamps(row.start, row.end) && row.start < earliest) earliest = row.start;
      append_status = spill.Append(row);
      return append_status.ok();
    }));
    GPUSCOPE_RETURN_IF_ERROR(append_status);
  }
  SpilledMerge<Row> merge(&runs);
  GPUSCOPE_RETURN_IF_ERROR(merge.Start());
  auto emit_spilled = [&](const Row& row) { emit(row, earliest); };
  if (driver < stream_count) {
    // The driver's first timed row is its earliest (start order), so `earliest` is final
    // before any timed row is emitted; untimed rows sort first and do not need it.
    bool earliest_final = false;
    Status merge_status;
    GPUSCOPE_RETURN_IF_ERROR(for_each_stream(driver, [&](const Row& row) {
      if (!earliest_final && HasTimestamps(row.start, row.end)) {
        if (row.start < earliest) earliest = row.start;
        earliest_final = true;
      }
      merge_status = merge.EmitBefore(row.start, emit_spilled);
      if (!merge_status.ok()) return false;
      emit(row, earliest);
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(merge_status);
  }
  return merge.EmitAll(emit_spilled);
}

// The stream with the most rows, to drive MergeStartOrdered: it is the one never copied
// aside. `count_rows(i)` returns StatusOr<std::uint64_t> for stream i; a count that cannot be
// read only makes the choice worse, never the output wrong.
template <typename CountRows>
std::size_t LargestStream(std::size_t stream_count, CountRows&& count_rows) {
  std::size_t driver = 0;
  std::uint64_t most = 0;
  for (std::size_t i = 0; i < stream_count; ++i) {
    StatusOr<std::uint64_t> rows = count_rows(i);
    if (rows.ok() && *rows > most) {
      most = *rows;
      driver = i;
    }
  }
  return driver;
}

}  // namespace gpuscope::analysis

// The hand-off from CUPTI's threads to the writer thread: completed buffers in arrival
// order, plus the writer's other reasons to wake up (a commit was requested, stop).
//
// Commit tickets give "flushed" a precise meaning: RequestCommit() returns a ticket, and
// the writer marks it committed only after every buffer pushed before the request has
// been written and the sink flushed. A signal handler or the exit path waits for exactly
// that.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace gpuscope::inject {

struct CompletedBuffer {
  std::uint8_t* data = nullptr;
  std::size_t valid_bytes = 0;
  // false: CUPTI's activity records; true: API calls gpuscope captured itself
  // (captured_api_calls.h).
  bool captured_calls = false;
};

class BufferQueue {
 public:
  using Clock = std::chrono::steady_clock;

  // `capacity` is the pool's hard limit: there are never more buffers than that.
  explicit BufferQueue(std::size_t capacity);

  // Producer side, any thread, O(1). False when the queue is closed or full; the caller
  // keeps the buffer then.
  bool Push(CompletedBuffer buffer);

  // Anyone: asks the writer to commit after everything pushed so far.
  std::uint64_t RequestCommit();
  // True once `ticket` is committed; false at the deadline.
  bool WaitForCommit(std::uint64_t ticket, Clock::time_point deadline);
  // The writer finishes the queue, then stops.
  void RequestStop();
  // The writer is gone: later pushes fail, every waiter wakes, every ticket counts as
  // answered. Returns the buffers still queued (pushed after the writer's last look), in
  // order, so the caller can give them back.
  std::vector<CompletedBuffer> CloseAfterWriterExit();

  // Writer side. Waits for a buffer, a due commit, a stop with nothing left, or the
  // deadline; a returned buffer is popped.
  struct Work {
    std::optional<CompletedBuffer> buffer;
    bool stop = false;  // stop requested and the queue is empty
  };
  Work WaitForWork(Clock::time_point deadline);
  // The writer finished the buffer WaitForWork gave it.
  void MarkProcessed();
  // A ticket to commit now (everything it covers is written), or 0.
  std::uint64_t DueCommitTicket();
  void MarkCommitted(std::uint64_t ticket);

  std::size_t size() const;
  std::uint64_t processed() const;

 private:
  bool CommitDueLocked() const;

  mutable std::mutex mutex_;
  std::condition_variable work_available_;
  std::condition_variable committed_;
  std::vector<CompletedBuffer> ring_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
  std::uint64_t pushed_ = 0;
  std::uint64_t processed_ = 0;
  std::uint64_t requested_ticket_ = 0;
  std::uint64_t requested_at_push_ = 0;  // pushed_ when the latest ticket was requested
  std::uint64_t committed_ticket_ = 0;
  bool stop_requested_ = false;
  bool closed_ = false;
};

}  // namespace gpuscope::inject

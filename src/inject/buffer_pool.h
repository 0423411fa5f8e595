// The activity buffers handed to CUPTI, from a bounded pool.
//
// CUPTI asks for a buffer on the application's own threads (per-thread activity buffers
// are on by default in CUDA 13), so Acquire() must be O(1): it pops a recycled buffer or
// maps a fresh one. Memory stays bounded: when `soft_limit` buffers exist and none is
// free, a request waits for the writer thread to release one (back-pressure on the
// program instead of dropping records or growing without bound). Waiting only makes
// sense while the writer holds completed buffers; when every buffer sits with CUPTI (many
// threads each filling its own buffer), nothing would ever come back, so the pool grows
// up to `hard_limit`, and at the hard limit it refuses (CUPTI then drops the records and
// counts them, and the count ends up in the report).
//
// Buffers are zeroed before CUPTI gets them (we set CUPTI_ACTIVITY_ATTR_ZEROED_OUT_
// ACTIVITY_BUFFER): fresh buffers come zeroed from mmap, and Release() zeroes the used
// part on the writer thread, so CUPTI does not memset 8 MB on the application thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace gpuscope::inject {

struct BufferPoolLimits {
  // 8 MiB holds ~38,000 kernel records (216 bytes each) or ~200,000 API records: one
  // request per tens of milliseconds of a launch-bound loop. CUPTI gives each launching
  // thread a buffer of its own, so 16 threads hold 16 at once before any is completed. With
  // a soft limit of 16, CUPTI dropped 552 records in 1 run of 3 of 16 threads x 100,000
  // launches on the H100; with 32, none in 7 runs (the pool stays at 32, never grown). A
  // single-threaded loop stays far below (10 M launches: +149.7 MB in all, bench/RESULTS.md).
  std::size_t buffer_bytes = 8u << 20;
  std::size_t soft_limit = 32;
  std::size_t hard_limit = 64;
  // Upper bound on one request's wait for the writer; after it the pool grows instead,
  // so that no mistake of ours (or a lock inside CUPTI) can hang the program.
  std::chrono::milliseconds max_wait{2000};
};

struct BufferPoolStats {
  std::size_t allocated = 0;         // buffers that exist
  std::size_t free = 0;              // ready for CUPTI
  std::size_t awaiting_release = 0;  // completed by CUPTI, not yet released by the writer
  std::uint64_t acquired = 0;        // requests served
  std::uint64_t waits = 0;           // requests that had to wait for the writer
  std::uint64_t grown_past_soft_limit = 0;
  std::uint64_t refused = 0;  // requests answered with no buffer (hard limit)
};

class BufferPool {
 public:
  explicit BufferPool(BufferPoolLimits limits);
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  std::size_t buffer_bytes() const { return limits_.buffer_bytes; }

  // A zeroed buffer of buffer_bytes(), page aligned (CUPTI needs 8), or nullptr when the
  // hard limit is reached.
  std::uint8_t* Acquire();

  // CUPTI returned `buffer` full of records; the writer will Release() it. Returns false
  // (and changes nothing) for a pointer that is not ours.
  bool MarkCompleted(std::uint8_t* buffer);

  // The writer is done with `buffer`, whose first `used_bytes` CUPTI wrote: zero them and
  // make the buffer available again.
  void Release(std::uint8_t* buffer, std::size_t used_bytes);

  bool Owns(const std::uint8_t* buffer) const;
  BufferPoolStats stats() const;

 private:
  std::uint8_t* AllocateLocked();  // nullptr when mmap fails
  bool OwnsLocked(const std::uint8_t* buffer) const;

  const BufferPoolLimits limits_;
  mutable std::mutex mutex_;
  std::condition_variable released_;
  std::vector<std::uint8_t*> all_;   // every buffer, reserved to hard_limit
  std::vector<std::uint8_t*> free_;  // reserved to hard_limit: pushes never allocate
  BufferPoolStats stats_;
};

}  // namespace gpuscope::inject

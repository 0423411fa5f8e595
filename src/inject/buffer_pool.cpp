#include "inject/buffer_pool.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>

namespace gpuscope::inject {
namespace {

// CUPTI writes whole records below validSize; zeroing a little past it also covers a
// record it may have started at the end (the largest record is well under 4 KiB).
constexpr std::size_t kZeroingMargin = 4096;

}  // namespace

BufferPool::BufferPool(BufferPoolLimits limits) : limits_(limits) {
  all_.reserve(limits_.hard_limit);
  free_.reserve(limits_.hard_limit);
}

BufferPool::~BufferPool() {
  for (std::uint8_t* buffer : all_) munmap(buffer, limits_.buffer_bytes);
}

std::uint8_t* BufferPool::AllocateLocked() {
  // mmap, not malloc: the pages come zeroed and page aligned, and are only backed by
  // memory once CUPTI writes to them.
  void* memory = mmap(nullptr, limits_.buffer_bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  auto* buffer = static_cast<std::uint8_t*>(memory);
  all_.push_back(buffer);
  stats_.allocated = all_.size();
  return buffer;
}

std::uint8_t* BufferPool::Acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto deadline = std::chrono::steady_clock::now() + limits_.max_wait;
  bool waited = false;
  for (;;) {
    if (!free_.empty()) {
      std::uint8_t* buffer = free_.back();
      free_.pop_back();
      ++stats_.acquired;
      return buffer;
    }
    if (all_.size() < limits_.soft_limit) {
      std::uint8_t* buffer = AllocateLocked();
      if (buffer != nullptr) ++stats_.acquired;
      return buffer;
    }
    // Only the writer can give a buffer back; wait for it while it has some to give.
    if (stats_.awaiting_release > 0 && std::chrono::steady_clock::now() < deadline) {
      if (!waited) ++stats_.waits;
      waited = true;
      released_.wait_until(lock, deadline);
      continue;
    }
    if (all_.size() < limits_.hard_limit) {
      std::uint8_t* buffer = AllocateLocked();
      if (buffer != nullptr) {
        ++stats_.grown_past_soft_limit;
        ++stats_.acquired;
        return buffer;
      }
    }
    ++stats_.refused;
    return nullptr;
  }
}

bool BufferPool::OwnsLocked(const std::uint8_t* buffer) const {
  // At most hard_limit (64) entries: a linear scan is cheaper than any map.
  return std::find(all_.begin(), all_.end(), buffer) != all_.end();
}

bool BufferPool::Owns(const std::uint8_t* buffer) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return OwnsLocked(buffer);
}

bool BufferPool::MarkCompleted(std::uint8_t* buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!OwnsLocked(buffer)) return false;
  ++stats_.awaiting_release;
  return true;
}

void BufferPool::Release(std::uint8_t* buffer, std::size_t used_bytes) {
  // Zero outside the lock: this is the writer's time, never the application's.
  std::memset(buffer, 0, std::min(limits_.buffer_bytes, used_bytes + kZeroingMargin));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stats_.awaiting_release > 0) --stats_.awaiting_release;
    free_.push_back(buffer);
  }
  released_.notify_one();
}

BufferPoolStats BufferPool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  BufferPoolStats stats = stats_;
  stats.free = free_.size();
  return stats;
}

}  // namespace gpuscope::inject

// Which NVTX marker ids belong to start/end ranges (nvtxRangeStart*/End) rather than
// push/pop ranges.
//
// CUPTI's MARKER records cannot tell: verified on our H200 with CUPTI 13.0, push/pop and
// start/end markers alike carry objectKind THREAD, the same flags (START 0x2, END 0x4) and
// ids from one counter (push 1, push 2, start 3, start 4, mark 5, ...). What does tell is
// the NVTX callback of nvtxRangeStart*: it returns the range id, which equals the marker
// id. The callback (on the program's thread) adds the id here; the writer thread takes it
// when it writes the range, which is after the range ended and so long after the callback
// returned.
//
// Bounded: a range that is never ended (or whose end was not recorded) leaves its id here
// for good, so at most `capacity` ids are kept and the oldest is forgotten first. What that
// costs: a start/end range still open after `capacity` newer ranges started is written as
// a push/pop range (its times, name and domain stay right; only the kind is wrong).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_set>

namespace gpuscope::inject {

class NvtxStartEndIds {
 public:
  // 64 Ki ids: about 3 MiB at most; far more ranges than a program keeps open at once.
  static constexpr std::size_t kDefaultCapacity = 65536;

  explicit NvtxStartEndIds(std::size_t capacity = kDefaultCapacity) : capacity_(capacity) {}

  void Add(std::uint32_t marker_id);
  // True (and forgets the id) when `marker_id` was added and not evicted since.
  bool Take(std::uint32_t marker_id);
  std::size_t size() const;
  // Ids forgotten to stay within the capacity.
  std::uint64_t evicted() const;

 private:
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_set<std::uint32_t> ids_;
  // Ids in the order they were added. Taken ids stay here until they reach the front
  // (skipped then), so its length is bounded by capacity plus the ids taken since.
  std::deque<std::uint32_t> order_;
  std::uint64_t evicted_ = 0;
};

// The process's registry. Never destroyed: NVTX calls may come during static destruction.
NvtxStartEndIds& ProcessNvtxStartEndIds();

}  // namespace gpuscope::inject

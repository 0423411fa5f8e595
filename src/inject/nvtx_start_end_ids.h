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
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_set>

namespace gpuscope::inject {

class NvtxStartEndIds {
 public:
  void Add(std::uint32_t marker_id);
  // True (and forgets the id) when `marker_id` was added.
  bool Take(std::uint32_t marker_id);
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_set<std::uint32_t> ids_;
};

// The process's registry. Never destroyed: NVTX calls may come during static destruction.
NvtxStartEndIds& ProcessNvtxStartEndIds();

}  // namespace gpuscope::inject

#include "inject/capture_gate.h"

#include <algorithm>

namespace gpuscope::inject {

void CaptureGate::BeginEntered() {
  {
    std::lock_guard<std::mutex> lock(state_);
    ++pending_;
  }
  // A sample in progress finishes first (its GPU calls must not overlap the capture).
  if (sampling_.try_lock_for(kBeginWait)) sampling_.unlock();
}

void CaptureGate::BeginReturned(std::uintptr_t stream, bool started) {
  std::lock_guard<std::mutex> lock(state_);
  if (pending_ > 0) --pending_;
  if (!started) return;
  std::uint64_t* end = streams_ + stream_count_;
  if (std::find(streams_, end, stream) != end) return;  // the driver call inside the runtime's
  if (stream_count_ == std::size(streams_)) {
    overflow_ = true;
    return;
  }
  streams_[stream_count_++] = stream;
}

void CaptureGate::EndReturned(std::uintptr_t stream) {
  std::lock_guard<std::mutex> lock(state_);
  std::uint64_t* end = streams_ + stream_count_;
  std::uint64_t* found = std::find(streams_, end, stream);
  if (found == end) return;
  *found = streams_[--stream_count_];
}

std::uint64_t CaptureGate::active() const {
  std::lock_guard<std::mutex> lock(state_);
  return pending_ + stream_count_ + (overflow_ ? 1 : 0);
}

CaptureGate::Hold::Hold(CaptureGate& gate) : gate_(gate) { gate_.sampling_.lock(); }

CaptureGate::Hold::~Hold() { gate_.sampling_.unlock(); }

bool CaptureGate::Hold::capturing() const { return gate_.active() != 0; }

CaptureGate& ProcessCaptureGate() {
  static auto* gate = new CaptureGate();
  return *gate;
}

}  // namespace gpuscope::inject

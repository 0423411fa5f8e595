#include "inject/call_stacks.h"

#include <array>
#include <string>

#include "inject/log.h"
#include "inject/native_frames.h"

namespace gpuscope::inject {
namespace {

std::atomic<CallStacks*> g_call_stacks{nullptr};

// Frames on the capturing thread's stack, not the heap: a capture allocates only when a
// stack is seen for the first time.
constexpr std::size_t kMaxDepth = 128;

std::string VersionText(unsigned long hex) {
  if (hex == 0) return "older than 3.11";
  return std::to_string((hex >> 24) & 0xFF) + "." + std::to_string((hex >> 16) & 0xFF);
}

}  // namespace

CallStacks::CallStacks(CallStackLimits limits, std::unique_ptr<PythonFrameWalker> python)
    : limits_(limits), stacks_(limits.max_stacks), python_(std::move(python)) {
  if (python_) std::call_once(python_once_, [] {});  // given: never looked up
  waiting_.reserve(1024);
}

PythonFrameWalker* CallStacks::Python() {
  std::call_once(python_once_, [this] {
    PythonApi api = FindPythonApi();
    if (!api.complete()) return;
    python_ = std::make_unique<PythonFrameWalker>(api);
    if (!python_->reads_detached_threads()) {
      // PyTorch and CuPy launch with the GIL released: their launches get native stacks.
      LogError("--backtrace: Python " + VersionText(api.version) +
               ": the frames of threads that released the GIL (PyTorch, CuPy) are read only "
               "on CPython 3.11 to 3.13; calls made without the GIL get native stacks");
    }
  });
  return python_.get();
}

void CallStacks::Capture(std::uint32_t correlation_id) noexcept {
  try {
    std::array<CapturedFrame, kMaxDepth> frames;
    std::size_t count = 0;
    if (PythonFrameWalker* python = Python()) {
      std::array<PythonFrame, kMaxDepth> python_frames;
      count = python->Walk(python_frames.data(), std::min(limits_.python_depth, kMaxDepth));
      for (std::size_t i = 0; i < count; ++i) {
        frames[i] = CapturedFrame{0, python_frames[i].code, python_frames[i].line};
      }
    }
    if (count == 0) {
      std::array<std::uint64_t, kMaxDepth> addresses;
      count = CaptureNativeFrames(addresses.data(), std::min(limits_.native_depth, kMaxDepth),
                                  /*skip=*/1);
      for (std::size_t i = 0; i < count; ++i) frames[i] = CapturedFrame{addresses[i], nullptr, 0};
    }
    if (count == 0) return Drop();
    const std::uint32_t id = stacks_.Intern(std::span(frames.data(), count));
    if (id == 0) return Drop();
    std::lock_guard<std::mutex> lock(waiting_mutex_);
    if (waiting_.size() >= limits_.max_waiting_calls) return Drop();
    waiting_[correlation_id] = id;
  } catch (...) {
    Drop();
  }
}

std::uint32_t CallStacks::TakeStackId(std::uint32_t correlation_id) {
  std::lock_guard<std::mutex> lock(waiting_mutex_);
  auto found = waiting_.find(correlation_id);
  if (found == waiting_.end()) return 0;
  const std::uint32_t id = found->second;
  waiting_.erase(found);
  return id;
}

void PublishCallStacks(CallStacks* stacks) {
  g_call_stacks.store(stacks, std::memory_order_release);
}

CallStacks* PublishedCallStacks() { return g_call_stacks.load(std::memory_order_acquire); }

}  // namespace gpuscope::inject

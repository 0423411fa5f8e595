// `--backtrace`: the host call stack of each chosen CUDA call, taken in the call's enter
// callback on the program's thread and matched to the call's API record on the writer thread
// by correlation id.
//
// Which frames: the Python frames when the thread holds the GIL and runs Python code (a
// PyTorch or CuPy call: the interpreter's own native frames say nothing the Python frames do
// not), else the native return addresses, symbolised after the run by the CLI. A stack is
// stored once (StackTable); a call refers to it by id. Everything that could grow is bounded,
// and every call left without its stack is counted (model::CollectionCounters::stacks_dropped).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "inject/python_frames.h"
#include "inject/stack_table.h"

namespace gpuscope::inject {

struct CallStackLimits {
  std::size_t max_stacks = 1 << 20;         // distinct stacks per process
  std::size_t max_waiting_calls = 1 << 20;  // calls whose API record has not come yet
  // The CUPTI, driver and runtime frames come first (about 15); 32 leaves room for the call
  // site and its callers while bounding the unwind, the cost of a native capture.
  std::size_t native_depth = 32;  // frames kept per native stack
  std::size_t python_depth = 48;  // frames kept per Python stack
};

class CallStacks {
 public:
  // `python`: the CPython API to walk frames with; unset: found in the process at first use.
  explicit CallStacks(CallStackLimits limits = {}, std::unique_ptr<PythonFrameWalker> python = {});

  // The program's thread, in the enter callback of call `correlation_id`. Never throws.
  void Capture(std::uint32_t correlation_id) noexcept;

  // Writer thread: the stack id of the call (0: none), forgotten once taken.
  std::uint32_t TakeStackId(std::uint32_t correlation_id);
  // Writer thread: the stacks not written yet.
  std::vector<NewStack> TakeNewStacks() { return stacks_.TakeNew(); }
  // Calls left without their stack so far (a table was full, or the capture failed).
  std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  PythonFrameWalker* Python();
  void Drop() { dropped_.fetch_add(1, std::memory_order_relaxed); }

  const CallStackLimits limits_;
  StackTable stacks_;
  std::once_flag python_once_;
  std::unique_ptr<PythonFrameWalker> python_;
  std::mutex waiting_mutex_;
  std::unordered_map<std::uint32_t, std::uint32_t> waiting_;  // correlation id -> stack id
  std::atomic<std::uint64_t> dropped_{0};
};

// The process's call stacks, published by the session when `--backtrace` asked for them
// (never withdrawn: callbacks may come until the process ends); nullptr otherwise.
void PublishCallStacks(CallStacks* stacks);
CallStacks* PublishedCallStacks();

}  // namespace gpuscope::inject

// What a test's handler (or summary hook) waits on to be slow for exactly as long as the test
// needs: until the test opens the gate, or 30 s at most, so that a failing test never hangs.
// Shared through a shared_ptr by handlers a stopping server may leave running.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace gpuscope::viewer::testing {

class HandlerGate {
 public:
  // Counts the caller in, then waits for the gate to open.
  void Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    ++entered_;
    changed_.notify_all();
    changed_.wait_for(lock, std::chrono::seconds(30), [this] { return open_; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  // Whether `count` callers have entered Wait() within `limit`.
  bool AwaitEntered(int count, std::chrono::milliseconds limit) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, limit, [&] { return entered_ >= count; });
  }
  int entered() {
    std::lock_guard<std::mutex> lock(mutex_);
    return entered_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
  int entered_ = 0;
};

}  // namespace gpuscope::viewer::testing

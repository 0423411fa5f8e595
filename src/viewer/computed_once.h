// A value computed on first use and kept, without a lock held while it is computed: the
// first caller computes it; callers that come meanwhile wait for that computation (one
// summary of a large report costs one pass, however many tabs ask for it at once) and
// callers of anything else never wait. A failure is not kept: it is returned to the callers
// that waited for it, and the next caller tries again.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <utility>

#include "util/status.h"

namespace gpuscope::viewer {

template <typename T>
class ComputedOnce {
 public:
  // The value, computed with `compute` (() -> StatusOr<T>) unless it was already. The
  // pointer stays valid as long as this object.
  template <typename Compute>
  StatusOr<const T*> Get(Compute&& compute) {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::size_t attempt = failures_;
    done_.wait(lock, [&] { return value_.has_value() || !computing_; });
    if (value_) return &*value_;
    if (failures_ != attempt && failure_) return *failure_;  // the one we waited for failed
    computing_ = true;
    lock.unlock();
    // Reset even if `compute` throws, so that no caller waits for ever.
    struct Finish {
      ComputedOnce& self;
      std::unique_lock<std::mutex>& lock;
      ~Finish() {
        if (!lock.owns_lock()) lock.lock();
        self.computing_ = false;
        self.done_.notify_all();
      }
    } finish{*this, lock};
    StatusOr<T> computed = compute();
    lock.lock();
    if (!computed.ok()) {
      ++failures_;
      failure_ = computed.status();
      return computed.status();
    }
    value_.emplace(std::move(computed.value()));
    return &*value_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  bool computing_ = false;
  std::optional<T> value_;
  std::size_t failures_ = 0;  // so that a waiter knows whether the computation it saw failed
  std::optional<Status> failure_;
};

}  // namespace gpuscope::viewer

#include "viewer/worker_pool.h"

namespace gpuscope::viewer {

WorkerPool::WorkerPool(std::size_t threads, std::size_t max_queued)
    : state_(std::make_shared<State>()) {
  state_->max_queued = max_queued;
  threads_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) {
    threads_.emplace_back([state = state_] { Run(state); });
  }
}

WorkerPool::~WorkerPool() { Stop(std::chrono::milliseconds::max()); }

bool WorkerPool::TryPost(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (state_->stopping || state_->jobs.size() >= state_->max_queued) return false;
    state_->jobs.push_back(std::move(job));
  }
  state_->wake.notify_one();
  return true;
}

std::size_t WorkerPool::Stop(std::chrono::milliseconds grace) {
  if (threads_.empty()) return 0;
  std::deque<std::function<void()>> dropped;
  std::unique_lock<std::mutex> lock(state_->mutex);
  state_->stopping = true;
  dropped.swap(state_->jobs);
  state_->wake.notify_all();
  auto all_returned = [this] { return state_->running == 0; };
  bool returned = grace == std::chrono::milliseconds::max()
                      ? (state_->returned.wait(lock, all_returned), true)
                      : state_->returned.wait_for(lock, grace, all_returned);
  const std::size_t left = returned ? 0 : state_->running;
  lock.unlock();
  // Idle threads return at once; a thread still running a job is not waited for.
  for (std::thread& thread : threads_) {
    if (left == 0) {
      thread.join();
    } else {
      thread.detach();
    }
  }
  threads_.clear();
  return left;
}

void WorkerPool::Run(const std::shared_ptr<State>& state) {
  std::unique_lock<std::mutex> lock(state->mutex);
  for (;;) {
    state->wake.wait(lock, [&] { return state->stopping || !state->jobs.empty(); });
    if (state->stopping) return;
    std::function<void()> job = std::move(state->jobs.front());
    state->jobs.pop_front();
    ++state->running;
    lock.unlock();
    job();
    job = nullptr;  // what the job owns goes before it counts as returned
    lock.lock();
    --state->running;
    state->returned.notify_all();
  }
}

}  // namespace gpuscope::viewer

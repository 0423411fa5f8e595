// A fixed number of threads running posted jobs, with a bounded queue of jobs waiting for a
// thread. TryPost refuses a job when the queue is full instead of waiting, so that the
// viewer's event loop (the only poster) never blocks on slow handlers: it answers 503.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuscope::viewer {

class WorkerPool {
 public:
  WorkerPool(std::size_t threads, std::size_t max_queued);
  // Drops the jobs still queued and waits for the running ones to return.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // False when `max_queued` jobs are already waiting; the job is then not run.
  bool TryPost(std::function<void()> job);

 private:
  void Run();
  const std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace gpuscope::viewer

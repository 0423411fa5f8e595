// A fixed number of threads running posted jobs, with a bounded queue of jobs waiting for a
// thread. TryPost refuses a job when the queue is full instead of waiting, so that the
// viewer's event loop (the only poster) never blocks on slow handlers: it answers 503.
//
// Stopping never waits for ever: a job that is still running after a grace period is left
// to finish on its own thread, detached, so that a server asked to stop (Ctrl-C, SIGTERM,
// --exit-after-seconds) stops even while a worker computes a long answer. The pool's own
// state lives on with such threads; a job that may be left must own, or share, what it uses.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuscope::viewer {

class WorkerPool {
 public:
  WorkerPool(std::size_t threads, std::size_t max_queued);
  // Stop() with an unbounded grace, unless it was stopped already.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // False when `max_queued` jobs are already waiting, or the pool is stopped; the job is then
  // not run.
  bool TryPost(std::function<void()> job);

  // Drops the jobs still queued, waits up to `grace` for the running ones to return, and
  // returns how many it left running (their threads detached). Only the first call stops.
  std::size_t Stop(std::chrono::milliseconds grace);

 private:
  // Shared with the threads, so that it outlives the pool while a left job runs.
  struct State {
    std::size_t max_queued = 0;
    std::mutex mutex;
    std::condition_variable wake;      // a job was posted, or the pool stops
    std::condition_variable returned;  // a running job returned
    std::deque<std::function<void()>> jobs;
    std::size_t running = 0;
    bool stopping = false;
  };
  static void Run(const std::shared_ptr<State>& state);
  std::shared_ptr<State> state_;
  std::vector<std::thread> threads_;
};

}  // namespace gpuscope::viewer

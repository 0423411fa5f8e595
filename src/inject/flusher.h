// The flusher thread: the one place that asks CUPTI for buffers on a schedule and on
// demand, so that neither the program's threads nor the writer ever block in CUPTI.
//
//   every period:      actions.periodic()       (CUPTI flush, dropped count, commit request)
//   'I' / 'K' byte:    actions.on_signal(dies)  (a SIGINT/SIGTERM/SIGABRT handler woke us), then
//                      one byte on the done pipe, which the handler is waiting for
//   final flush:       actions.final_flush()    (the exit path, which waits with a timeout)
//   urgent flush:      actions.urgent_flush()   (a sticky CUDA error: the program's thread
//                      waits, with a timeout, before its failed call returns)
//
// The signal handler talks to this thread through two pipes (the self-pipe trick): write()
// and poll() are async-signal-safe, locks and condition variables are not.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "util/status.h"

namespace gpuscope::inject {

class Flusher {
 public:
  struct Actions {
    std::function<void()> periodic;
    std::function<void(bool process_dies)> on_signal;
    std::function<void()> final_flush;
    std::function<void()> urgent_flush;
  };

  // Wake-pipe bytes written by the signal handler.
  static constexpr char kSignalProcessDies = 'K';
  static constexpr char kSignalProcessContinues = 'I';

  Flusher(std::chrono::milliseconds period, Actions actions);
  // Stops the thread if it is still running (waits for it).
  ~Flusher();
  Flusher(const Flusher&) = delete;
  Flusher& operator=(const Flusher&) = delete;

  Status Start();

  bool running() const { return thread_.joinable(); }

  // For the signal handler: where to write the request, where to wait for the answer.
  int wake_fd() const { return wake_write_; }
  int done_fd() const { return done_read_; }

  // Runs actions.final_flush on the flusher thread; false when it did not return within
  // `timeout` (a GPU that no longer answers), in which case the caller goes on without it.
  bool RunFinalFlush(std::chrono::milliseconds timeout);

  // Runs actions.urgent_flush on the flusher thread and waits for it; false when it did not
  // return within `timeout` or the thread is not running.
  bool RunUrgentFlush(std::chrono::milliseconds timeout);

  // Ends the thread; false when it did not stop within `timeout` (left detached).
  bool Stop(std::chrono::milliseconds timeout);

 private:
  void Loop();
  void Send(char command);

  const std::chrono::milliseconds period_;
  Actions actions_;
  int wake_read_ = -1;
  int wake_write_ = -1;
  int done_read_ = -1;
  int done_write_ = -1;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool final_done_ = false;
  std::uint64_t urgent_requested_ = 0;
  std::uint64_t urgent_done_ = 0;
  bool exited_ = false;
  bool abandoned_ = false;  // Stop() timed out: the thread may still use the pipes
};

}  // namespace gpuscope::inject

#include "inject/flusher.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "inject/background_thread.h"
#include "inject/log.h"

namespace gpuscope::inject {
namespace {

constexpr char kFinalFlush = 'F';
constexpr char kQuit = 'Q';
constexpr char kUrgentFlush = 'U';

Status MakePipe(int& read_end, int& write_end) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    return Status::Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  read_end = fds[0];
  write_end = fds[1];
  return Status();
}

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// Runs an action without letting anything escape the thread.
template <typename F>
void Guarded(const char* what, F&& action) {
  try {
    action();
  } catch (...) {
    LogError(std::string(what) + " failed");
  }
}

}  // namespace

Flusher::Flusher(std::chrono::milliseconds period, Actions actions)
    : period_(period), actions_(std::move(actions)) {}

Flusher::~Flusher() {
  Stop(std::chrono::hours(1));
  // Pipes stay open if the thread was left running (it may still use them).
  std::lock_guard<std::mutex> lock(mutex_);
  if (!abandoned_) {
    CloseFd(wake_read_);
    CloseFd(wake_write_);
    CloseFd(done_read_);
    CloseFd(done_write_);
  }
}

Status Flusher::Start() {
  GPUSCOPE_RETURN_IF_ERROR(MakePipe(wake_read_, wake_write_));
  GPUSCOPE_RETURN_IF_ERROR(MakePipe(done_read_, done_write_));
  return StartBackgroundThread(
      "gpuscope-flush", [this] { Loop(); }, thread_);
}

void Flusher::Send(char command) {
  ssize_t ignored = write(wake_write_, &command, 1);
  (void)ignored;
}

void Flusher::Loop() {
  auto next_period = std::chrono::steady_clock::now() + period_;
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next_period - now);
    pollfd wake{wake_read_, POLLIN, 0};
    int ready = poll(&wake, 1, wait.count() > 0 ? static_cast<int>(wait.count()) : 0);
    if (ready > 0) {
      char commands[64];
      ssize_t n = read(wake_read_, commands, sizeof(commands));
      for (ssize_t i = 0; i < n; ++i) {
        switch (commands[i]) {
          case kSignalProcessDies:
          case kSignalProcessContinues: {
            const bool dies = commands[i] == kSignalProcessDies;
            if (actions_.on_signal) {
              Guarded("flushing on a signal", [&] { actions_.on_signal(dies); });
            }
            const char done = 'd';
            ssize_t ignored = write(done_write_, &done, 1);
            (void)ignored;
            break;
          }
          case kFinalFlush: {
            if (actions_.final_flush) Guarded("the final flush", [&] { actions_.final_flush(); });
            std::lock_guard<std::mutex> lock(mutex_);
            final_done_ = true;
            changed_.notify_all();
            break;
          }
          case kUrgentFlush: {
            if (actions_.urgent_flush) Guarded("the urgent flush", [&] { actions_.urgent_flush(); });
            std::lock_guard<std::mutex> lock(mutex_);
            ++urgent_done_;
            changed_.notify_all();
            break;
          }
          case kQuit: {
            std::lock_guard<std::mutex> lock(mutex_);
            exited_ = true;
            changed_.notify_all();
            return;
          }
          default:
            break;
        }
      }
    }
    if (std::chrono::steady_clock::now() >= next_period) {
      if (actions_.periodic) Guarded("the periodic flush", [&] { actions_.periodic(); });
      next_period = std::chrono::steady_clock::now() + period_;
    }
  }
}

bool Flusher::RunFinalFlush(std::chrono::milliseconds timeout) {
  if (!thread_.joinable()) return false;
  Send(kFinalFlush);
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return final_done_ || exited_; }) && final_done_;
}

bool Flusher::RunUrgentFlush(std::chrono::milliseconds timeout) {
  if (!thread_.joinable()) return false;
  std::unique_lock<std::mutex> lock(mutex_);
  const std::uint64_t ticket = ++urgent_requested_;
  Send(kUrgentFlush);
  return changed_.wait_for(lock, timeout, [&] { return urgent_done_ >= ticket || exited_; }) &&
         urgent_done_ >= ticket;
}

bool Flusher::Stop(std::chrono::milliseconds timeout) {
  if (!thread_.joinable()) return true;
  Send(kQuit);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!changed_.wait_for(lock, timeout, [&] { return exited_; })) {
      abandoned_ = true;
      lock.unlock();
      thread_.detach();
      return false;
    }
  }
  thread_.join();
  return true;
}

}  // namespace gpuscope::inject

#include "inject/process_hooks.h"

#include <pthread.h>

#include <atomic>
#include <cstdlib>

#include "inject/log.h"
#include "inject/signal_flush.h"

namespace gpuscope::inject {
namespace {

std::atomic<Session*> g_session{nullptr};

// atexit handlers run before the CUDA runtime's teardown (registered earlier, run later),
// so CUPTI can still deliver everything here.
void OnExit() {
  Session* session = g_session.load(std::memory_order_acquire);
  if (session == nullptr) return;
  try {
    session->End();
  } catch (...) {
    LogError("finishing the report at exit failed");
  }
}

// In the child of fork(): only atomic stores.
void OnForkInChild() {
  Session* session = g_session.exchange(nullptr, std::memory_order_acq_rel);
  if (session != nullptr) session->AbandonInForkedChild();
}

}  // namespace

Status InstallProcessHooks(Session* session) {
  g_session.store(session, std::memory_order_release);
  if (std::atexit(OnExit) != 0) {
    return Status::Error(
        "cannot register the exit handler; the report is only complete up to "
        "the last periodic flush");
  }
  if (pthread_atfork(nullptr, nullptr, OnForkInChild) != 0) {
    return Status::Error("cannot register the fork handler");
  }
  if (session->flusher().running()) {
    return InstallFlushOnSignals(session->flusher().wake_fd(), session->flusher().done_fd(),
                                 session->timeouts().signal_wait);
  }
  return Status();
}

}  // namespace gpuscope::inject

#include "inject/process_hooks.h"

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "inject/exit_hooks.h"
#include "inject/log.h"
#include "inject/signal_flush.h"

namespace gpuscope::inject {
namespace {

std::atomic<Session*> g_session{nullptr};

// atexit handlers run before the CUDA runtime's teardown (registered earlier, run later),
// so CUPTI can still deliver everything here. Inside Python this also runs from Py_AtExit
// (exit_hooks.h), before the atexit call; Session::End is idempotent.
void OnExit() {
  Session* session = g_session.load(std::memory_order_acquire);
  if (session == nullptr) return;
  try {
    session->End();
  } catch (...) {
    LogError("finishing the report at exit failed");
  }
}

// The very end of the process: after every atexit handler, the CUDA runtime's teardown
// included (a destructor of this library runs in the dynamic linker's exit, registered at
// program start, so after all of them). Records CUPTI delivered after the report was closed
// are not in it: say so, once, since the summary printed from the report cannot.
__attribute__((destructor)) void ReportRecordsAfterTheReportClosed() {
  Session* session = g_session.load(std::memory_order_acquire);
  if (session == nullptr || !session->ended()) return;
  const std::uint64_t late = session->collector().stats().late_records;
  if (late != 0) {
    LogError(LateRecordsMessage(late, session->collector().LateRecordsDescription()));
  }
}

// In the child of fork(): only atomic stores.
void OnForkInChild() {
  Session* session = g_session.exchange(nullptr, std::memory_order_acq_rel);
  if (session != nullptr) session->AbandonInForkedChild();
}

}  // namespace

std::string LateRecordsMessage(std::uint64_t count, const std::string& what) {
  return std::to_string(count) + (count == 1 ? " record" : " records") +
         " arrived after the report was closed and " + (count == 1 ? "is" : "are") +
         " not in it" + (what.empty() ? "" : ": " + what);
}

Status InstallProcessHooks(Session* session) {
  g_session.store(session, std::memory_order_release);
  GPUSCOPE_RETURN_IF_ERROR(RegisterExitHook(OnExit));
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

// SIGINT, SIGTERM and SIGABRT: flush what we have before the program goes, then do exactly
// what would have happened without us.
//
// The handlers are installed with sigaction, and the previous disposition is saved and
// chained (Python installs its own SIGINT handler before CUDA starts; ours must not
// replace it). The handler is async-signal-safe: it writes one byte to the flusher's wake
// pipe ('K' when the process is about to die, 'I' when a program handler will run and the
// program may go on), waits with poll() for the flusher's answer for at most `wait`, and
// then chains:
//   previous SIG_DFL -> restore SIG_DFL and re-raise (the default action then kills us,
//                       with the status the launcher expects);
//   previous SIG_IGN -> nothing is installed: the signal stays ignored by the kernel (and
//                       in exec'd children), and nothing dies of it;
//   previous handler -> call it, with siginfo if it asked for it; with SA_RESETHAND only
//                       the first time, later deliveries act as SIG_DFL (flush, then die).
// The disposition is classified by the handler value alone: the kernel keeps SA_SIGINFO
// in the flags of a SIG_DFL/SIG_IGN set with it.
// SIGABRT is a program deciding to die (abort(), a failed assert or check macro, often right
// after a CUDA error): its memory is sane, so the flush is worth trying; if it was raised
// inside malloc or a lock the flusher needs, the handler gives up after `wait` and the
// process dies as it would have. SIGSEGV, SIGBUS, SIGILL and SIGFPE are left alone: the
// process's memory may be corrupt and calling CUPTI from it can deadlock or crash, so those
// rely on the periodic flush and on the flush at the first sticky CUDA error.
#pragma once

#include <chrono>

#include "util/status.h"

namespace gpuscope::inject {

Status InstallFlushOnSignals(int wake_fd, int done_fd, std::chrono::milliseconds wait);

// From now on the handlers only chain (the session ended, or a forked child). Safe to call
// from a signal handler or an atfork child handler.
void StopFlushingOnSignals();

}  // namespace gpuscope::inject

// Threads the injection library starts inside someone else's process.
//
// They block every asynchronous signal: the kernel delivers a process-directed signal
// (SIGINT, SIGTERM, SIGALRM, SIGCHLD, ...) to any thread that does not block it, and the
// program's handlers expect to run on the program's threads, not ours (and our flush
// handler must never run on the flusher thread it is waiting for).
#pragma once

#include <functional>
#include <thread>

#include "util/status.h"

namespace gpuscope::inject {

// Starts `body` on a new thread with all blockable signals blocked. `name` (at most 15
// characters) shows in `top -H` and gdb. Fails with a message instead of throwing.
Status StartBackgroundThread(const char* name, std::function<void()> body, std::thread& thread);

// How a component starts its thread: StartBackgroundThread in production; tests pass one
// that fails, as thread creation does under a pids cgroup limit.
using ThreadStarter =
    std::function<Status(const char* name, std::function<void()> body, std::thread& thread)>;

}  // namespace gpuscope::inject

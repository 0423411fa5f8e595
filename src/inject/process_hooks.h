// The process-wide hooks of a session: atexit and Py_AtExit (End, exit_hooks.h),
// pthread_atfork (abandon in the child), the SIGINT/SIGTERM flush handlers, and, at the
// very end of the process, one line counting the records that arrived after the report was
// closed. Registered once per process; the session must live until the process ends (CUPTI
// and these hooks may call it at any time).
#pragma once

#include <cstdint>
#include <string>

#include "inject/session.h"
#include "util/status.h"

namespace gpuscope::inject {

Status InstallProcessHooks(Session* session);

// "N records arrived after the report was closed and are not in it: <what they were>"
// (printed after "==PID== gpuscope: " at the very end of the process when N > 0).
std::string LateRecordsMessage(std::uint64_t count, const std::string& what);

}  // namespace gpuscope::inject

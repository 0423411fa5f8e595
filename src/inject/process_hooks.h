// The process-wide hooks of a session: atexit (End), pthread_atfork (abandon in the
// child) and the SIGINT/SIGTERM flush handlers. Registered once per process; the session
// must live until the process ends (CUPTI and these hooks may call it at any time).
#pragma once

#include "inject/session.h"
#include "util/status.h"

namespace gpuscope::inject {

Status InstallProcessHooks(Session* session);

}  // namespace gpuscope::inject

// A filesystem that fills up: a tmpfs of a few bytes or megabytes, mounted in a private mount
// namespace of a forked child, so that tests drive the production writer into a real ENOSPC
// (not a simulated one) without root on the host and without touching the host's mounts.
//
// The mount exists only inside the child, so everything that needs the files (writing,
// finalising, reading back) runs there; the child hands its findings back as text.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "util/status.h"

namespace gpuscope::store::testing {

struct SmallFilesystemRun {
  // False when this machine cannot make a private mount namespace or mount a tmpfs (no user
  // namespaces, a seccomp profile, ...): then `why_not` says why and nothing ran.
  bool ran = false;
  std::string why_not;
  // What `body` returned, and the child's exit: 0 when body returned normally; a crash
  // (a signal) is reported in `died_of_signal`.
  std::string result;
  int exit_code = 0;
  int died_of_signal = 0;
  // Everything the child wrote to stderr (the injection's log lines, say).
  std::string stderr_text;
};

// Forks; the child enters a new mount namespace (and a user namespace first when it is not
// root), mounts a tmpfs of `bytes` on a fresh directory and calls body(directory). Waits at
// most `timeout_s` seconds for the child (then kills it and reports the signal).
SmallFilesystemRun RunInSmallFilesystem(std::uint64_t bytes,
                                        const std::function<std::string(const std::string&)>& body,
                                        int timeout_s = 120);

}  // namespace gpuscope::store::testing

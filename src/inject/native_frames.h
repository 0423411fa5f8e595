// The calling thread's native return addresses, for `--backtrace`. Only addresses are taken
// here (no symbol lookups: those run after the run, in the CLI, on the report's module map),
// so a capture costs one unwind of the stack and nothing else.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpuscope::inject {

// Fills `out` with at most `max` return addresses of the calling thread, innermost first,
// after leaving out the `skip` innermost frames (this function's callers inside gpuscope).
// Returns how many were written. Never throws; safe in any thread.
std::size_t CaptureNativeFrames(std::uint64_t* out, std::size_t max, std::size_t skip);

}  // namespace gpuscope::inject

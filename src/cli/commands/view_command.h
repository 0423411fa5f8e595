// `gpuscope view <report>... [--port N]`: serves the browser viewer on 127.0.0.1 until
// Ctrl-C.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// 0 after Ctrl-C (or --exit-after-seconds); 1 when a report cannot be read or the port
// cannot be bound; 2 for usage errors.
int ViewCommand(std::span<const std::string> args);
std::string ViewUsage();

}  // namespace gpuscope::cli

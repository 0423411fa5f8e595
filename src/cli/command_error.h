// The one prefix of gpuscope's own errors, in every command: `gpuscope: error: <message>`
// (usage and arguments, unreadable reports, refused outputs, failures of profile's steps).
// Lines about a traced process keep nvprof's `==PID==` prefix (LogOutput::Line), and
// `profile`'s progress lines ncu's `==PROF==`.
#pragma once

#include <iostream>
#include <string_view>

namespace gpuscope::cli {

inline void CommandError(std::string_view message) {
  std::cerr << "gpuscope: error: " << message << '\n';
}

}  // namespace gpuscope::cli

// The one prefix of gpuscope's own errors, in every command: `gpuscope: error: <message>`
// (usage and arguments, unreadable reports, refused outputs, failures of profile's steps).
// Lines about a traced process keep nvprof's `==PID==` prefix (LogOutput::Line), and
// `profile`'s progress lines ncu's `==PROF==`. Messages may quote a file (SQLite cites a
// damaged schema's text): control characters are escaped, so that the error stays one line
// and the terminal runs nothing from it.
#pragma once

#include <iostream>
#include <string_view>

#include "render/escaping.h"

namespace gpuscope::cli {

inline void CommandError(std::string_view message) {
  std::cerr << "gpuscope: error: " << render::TerminalText(message) << '\n';
}

}  // namespace gpuscope::cli

// The injection side of the manifest (ARCHITECTURE.md): each traced process appends
// "pid<TAB>parent_pid<TAB>report path\n" once it has created its report, so the launcher
// finds the reports of children it never saw.
#pragma once

#include <string>

#include "util/status.h"

namespace gpuscope::inject {

// The line as the launcher parses it.
std::string FormatManifestLine(unsigned pid, unsigned parent_pid, const std::string& report_path);

// Appends the line with a single O_APPEND write, so concurrent processes never interleave
// their lines. An empty `manifest_path` (no launcher) does nothing.
Status AppendToManifest(const std::string& manifest_path, const std::string& line);

}  // namespace gpuscope::inject

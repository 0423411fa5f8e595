// The injection side of the manifest (contract/manifest_line.h): each traced process appends
// its line once it has created its report, so the launcher finds the reports of children it
// never saw.
#pragma once

#include <string>

#include "util/status.h"

namespace gpuscope::inject {

// Appends `line` (contract::FormatManifestLine) with a single O_APPEND write, so concurrent
// processes never interleave their lines. An empty `manifest_path` (no launcher) does
// nothing.
Status AppendToManifest(const std::string& manifest_path, const std::string& line);

}  // namespace gpuscope::inject

// The chip name of a GPU of this machine ("GH100"), for `gpuscope profile` to check metric
// names and count passes before the program starts. Needs the driver and a GPU; on a
// machine without one it fails (and `--chip` stands in).
#pragma once

#include <string>

#include "util/status.h"

namespace gpuscope::cupti::host {

StatusOr<std::string> DetectChip(int device_index);

}  // namespace gpuscope::cupti::host

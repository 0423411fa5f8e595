// Where gpuscope puts its short-lived files (the manifest, the config image handed to the
// injection, application replay's counter data between runs): $TMPDIR, or /tmp when it is
// unset or empty.
#pragma once

#include <string>

namespace gpuscope::cli {

std::string TemporaryDirectory();

}  // namespace gpuscope::cli

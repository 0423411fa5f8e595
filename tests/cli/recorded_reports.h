// What the binary tests share about the reports recorded on the GPU (tests/data/reports):
// their paths, and the JSON gpuscope prints about them, parsed (or the test fails).
#pragma once

#include <string>

#include "../support/json_checker.h"

namespace gpuscope::cli::testing {

// tests/data/reports/<name>.
std::string RecordedReport(const std::string& name);

// The parsed document; a parse error fails the test (with the text) and gives null.
analysis::testing::JsonValue ParsedJson(const std::string& text);

}  // namespace gpuscope::cli::testing

#include "recorded_reports.h"

#include <gtest/gtest.h>

#include "../support/json_expect.h"

namespace gpuscope::cli::testing {

std::string RecordedReport(const std::string& name) {
  return std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/" + name;
}

analysis::testing::JsonValue ParsedJson(const std::string& text) {
  return analysis::testing::ParsedJsonOrFail(text);
}

}  // namespace gpuscope::cli::testing

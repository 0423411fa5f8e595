#include "recorded_reports.h"

#include <gtest/gtest.h>

namespace gpuscope::cli::testing {

std::string RecordedReport(const std::string& name) {
  return std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/" + name;
}

analysis::testing::JsonValue ParsedJson(const std::string& text) {
  std::string error;
  std::optional<analysis::testing::JsonValue> parsed = analysis::testing::ParseJson(text, &error);
  EXPECT_TRUE(parsed.has_value()) << error << "\n" << text;
  return parsed.value_or(analysis::testing::JsonValue{});
}

}  // namespace gpuscope::cli::testing

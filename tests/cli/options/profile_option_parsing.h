// What the tests of `gpuscope profile`'s options share: parsing a command line, and the
// usage error of one that must be refused.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/options/profile_options.h"

namespace gpuscope::cli::testing {

inline StatusOr<ProfileOptions> Parse(std::vector<std::string> args) {
  return ParseProfileOptions(args);
}

// The error for `args`, checked to be one line; fails the test when they parse.
inline std::string ErrorOf(std::vector<std::string> args) {
  StatusOr<ProfileOptions> parsed = Parse(args);
  EXPECT_FALSE(parsed.ok()) << "accepted: " << ::testing::PrintToString(args);
  if (parsed.ok()) return {};
  const std::string& message = parsed.status().message();
  EXPECT_FALSE(message.empty());
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  return message;
}

}  // namespace gpuscope::cli::testing

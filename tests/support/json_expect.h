// JSON in the tests' assertions: a document that must parse, or a test failure that shows
// why and the start of the text.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "json_checker.h"

namespace gpuscope::analysis::testing {

inline JsonValue ParsedJsonOrFail(const std::string& text) {
  std::string error;
  std::optional<JsonValue> parsed = ParseJson(text, &error);
  EXPECT_TRUE(parsed.has_value()) << error << "\n" << text.substr(0, 2000);
  return parsed.value_or(JsonValue{});
}

}  // namespace gpuscope::analysis::testing

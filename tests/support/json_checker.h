// A small strict JSON parser for the tests: it accepts exactly RFC 8259 JSON (no trailing
// commas, no NaN, strings must be valid escapes) and returns a tree to inspect. Written
// for the tests so that "the JSON parses" is checked without depending on Python.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::analysis::testing {

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;  // kString (decoded), kNumber (as written)
  std::vector<JsonValue> array;
  std::vector<std::pair<std::string, JsonValue>> object;  // in document order

  const JsonValue* Find(std::string_view key) const {
    for (const auto& [name, value] : object) {
      if (name == key) return &value;
    }
    return nullptr;
  }
};

// The parsed document, or nullopt with `error` set.
std::optional<JsonValue> ParseJson(std::string_view text, std::string* error);

}  // namespace gpuscope::analysis::testing

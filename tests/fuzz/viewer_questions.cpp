#include "viewer_questions.h"

#include <cctype>

#include "../support/json_checker.h"

namespace gpuscope::fuzz {
namespace {

using analysis::testing::JsonValue;

std::string UrlEncode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string encoded;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.') {
      encoded += static_cast<char>(c);
    } else {
      encoded += '%';
      encoded += hex[c >> 4];
      encoded += hex[c & 15];
    }
  }
  return encoded;
}

const std::string* Text(const JsonValue& object, const char* key) {
  const JsonValue* value = object.Find(key);
  return value != nullptr && value->kind == JsonValue::Kind::kString ? &value->text : nullptr;
}

class Questions {
 public:
  explicit Questions(const std::function<ViewerAnswer(const std::string&)>& ask) : ask_(ask) {}

  // The parsed answer to `target`, or nullopt (the first problem is kept).
  std::optional<JsonValue> Ask(const std::string& target) {
    if (problem_) return std::nullopt;
    ViewerAnswer answer = ask_(target);
    if (answer.status == 0) return Fail(target, "no whole answer before the timeout");
    std::string error;
    std::optional<JsonValue> body = analysis::testing::ParseJson(answer.body, &error);
    if (!body) {
      return Fail(target, "status " + std::to_string(answer.status) + " with invalid JSON (" +
                              error + ")");
    }
    return body;
  }

  // Events and kernel pages of the first slices of a track.
  void AboutSlices(const JsonValue& slices, std::size_t report) {
    const JsonValue* list = slices.Find("slices");
    if (list == nullptr) return;
    std::size_t asked = 0;
    for (const JsonValue& slice : list->array) {
      if (asked++ == 3) return;
      const std::string* type = Text(slice, "type");
      const JsonValue* id = slice.Find("id");
      if (type != nullptr && id != nullptr && id->kind == JsonValue::Kind::kNumber) {
        Ask("/api/event?report=" + std::to_string(report) + "&type=" + UrlEncode(*type) +
            "&id=" + id->text);
      }
      const std::string* name = Text(slice, "name");
      if (type != nullptr && *type == "kernel" && name != nullptr && !name->empty()) {
        Ask("/api/kernel?report=" + std::to_string(report) + "&name=" + UrlEncode(*name));
      }
    }
  }

  std::optional<std::string> problem() const { return problem_; }

 private:
  std::nullopt_t Fail(const std::string& target, const std::string& why) {
    problem_ = "GET " + target + ": " + why;
    return std::nullopt;
  }

  const std::function<ViewerAnswer(const std::string&)>& ask_;
  std::optional<std::string> problem_;
};

}  // namespace

std::optional<std::string> AskViewer(
    const std::function<ViewerAnswer(const std::string& target)>& ask) {
  Questions questions(ask);
  questions.Ask("/api/reports");
  for (std::size_t report = 0; report < 2; ++report) {
    std::optional<JsonValue> tracks = questions.Ask("/api/tracks?report=" + std::to_string(report));
    if (!tracks) break;
    std::size_t asked = 0;
    for (const JsonValue& track : tracks->array) {
      const std::string* id = Text(track, "id");
      if (id == nullptr || asked++ == 8) continue;
      std::optional<JsonValue> slices =
          questions.Ask("/api/slices?report=" + std::to_string(report) + "&track=" +
                        UrlEncode(*id) + "&start=0&end=18446744073709551615&px=1000");
      if (slices) questions.AboutSlices(*slices, report);
    }
  }
  questions.Ask("/api/summary");
  questions.Ask("/api/summary?reports=0");
  questions.Ask("/api/diff?a=0&b=1");
  questions.Ask("/api/diff?a=1&b=0");
  return questions.problem();
}

}  // namespace gpuscope::fuzz

#include "outcome.h"

#include <filesystem>

#include "../support/json_checker.h"

namespace gpuscope::fuzz {

bool HasSanitizerReport(const std::string& err) {
  for (const char* marker : {"AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer",
                             "ThreadSanitizer", "MemorySanitizer", "runtime error: "}) {
    if (err.find(marker) != std::string::npos) return true;
  }
  return false;
}

bool EndsWithOneLineError(const std::string& err) {
  if (err.empty() || err.back() != '\n') return false;
  std::size_t start = err.rfind('\n', err.size() - 2);
  start = start == std::string::npos ? 0 : start + 1;
  if (err.compare(start, 17, "gpuscope: error: ") != 0) return false;
  // No earlier error line: one failure, one message.
  return err.find("gpuscope: error: ") == start;
}

bool IsJson(const std::string& text, std::string* error) {
  return analysis::testing::ParseJson(text, error).has_value();
}

namespace {

Outcome Failure(std::string reason) { return {Verdict::kFailure, std::move(reason)}; }

// What is wrong with the output of a run that exited 0 ("" when nothing).
std::string OutputProblem(const Ended& ended, const Expected& expected) {
  std::string error;
  switch (expected.kind) {
    case OutputKind::kAny:
      return "";
    case OutputKind::kStdoutJson:
      return IsJson(ended.out, &error) ? "" : "exit 0 with invalid JSON on stdout: " + error;
    case OutputKind::kJsonFile:
      return IsJson(ReadWholeFile(expected.output_path), &error)
                 ? ""
                 : "exit 0 with invalid JSON in " + expected.output_path + ": " + error;
    case OutputKind::kHtmlFile: {
      std::string page = ReadWholeFile(expected.output_path);
      std::size_t end = page.rfind("</html>");
      if (end == std::string::npos || page.find_first_not_of(" \n", end + 7) != std::string::npos) {
        return "exit 0 with an HTML page that does not end with </html>: " + expected.output_path;
      }
      return "";
    }
    case OutputKind::kDirectory:
      return std::filesystem::is_directory(expected.output_path)
                 ? ""
                 : "exit 0 without the output directory " + expected.output_path;
  }
  return "";
}

}  // namespace

Outcome Classify(const Ended& ended, const Expected& expected) {
  if (ended.timed_out) return Failure("timed out (killed)");
  if (ended.signal != 0) return Failure("killed by signal " + std::to_string(ended.signal));
  if (ended.exit_code != 0 &&
      ended.err.find("RTLD_DEEPBIND flag which is incompatible with sanitizer runtime") !=
          std::string::npos) {
    return {Verdict::kNotUnderSanitizer, ""};
  }
  if (HasSanitizerReport(ended.err)) return Failure("sanitizer report on stderr");
  if (ended.exit_code == 0) {
    std::string problem = OutputProblem(ended, expected);
    if (!problem.empty()) return Failure(problem);
    return {Verdict::kOutput, ""};
  }
  if (!EndsWithOneLineError(ended.err)) {
    return Failure("exit " + std::to_string(ended.exit_code) +
                   " without a one-line 'gpuscope: error:' message as stderr's last line");
  }
  return {Verdict::kCleanError, ""};
}

}  // namespace gpuscope::fuzz

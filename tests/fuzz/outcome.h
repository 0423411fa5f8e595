// What the fuzz driver makes of one command run on a mutant. A reader meets any file with its
// output (exit 0, and output that is what it claims to be) or with a clean error (a non-zero
// exit whose stderr ends with one "gpuscope: error: ..." line); anything else is a FAILURE:
// a signal, a timeout, a sanitizer report, an error without its message, or exit 0 with
// garbled output (JSON that does not parse, an HTML page cut short).
#pragma once

#include <string>

#include "child_process.h"

namespace gpuscope::fuzz {

// What exit 0 promises about the command's output.
enum class OutputKind {
  kAny,         // text on stdout
  kStdoutJson,  // a JSON document on stdout
  kJsonFile,    // a JSON document in the output file
  kHtmlFile,    // a whole HTML page in the output file
  kDirectory,   // a directory of files (export --format csv)
};

struct Expected {
  OutputKind kind = OutputKind::kAny;
  std::string output_path;  // for the file and directory kinds
};

// kNotUnderSanitizer: CUPTI's host library (libnvperf_host.so, loaded with RTLD_DEEPBIND) cannot
// be loaded by a program built with AddressSanitizer, which then stops it; such runs (those that
// evaluate counter data) are counted apart and covered by the normal build's run instead.
enum class Verdict { kOutput, kCleanError, kFailure, kNotUnderSanitizer };

struct Outcome {
  Verdict verdict = Verdict::kFailure;
  std::string reason;  // why it is a failure (empty otherwise)
};

// True when `err` holds a report of AddressSanitizer, LeakSanitizer or UBSan.
bool HasSanitizerReport(const std::string& err);

// An error message is exactly one line, "gpuscope: error: ...", and it is stderr's last line.
bool EndsWithOneLineError(const std::string& err);

// Whether `text` is one whole JSON document; `error` says where it is not.
bool IsJson(const std::string& text, std::string* error);

Outcome Classify(const Ended& ended, const Expected& expected);

}  // namespace gpuscope::fuzz

#include "analysis/sticky_error_note.h"

#include "util/units.h"
#include "model/sticky_errors.h"

namespace gpuscope::analysis {

std::string StickyErrorNote(const store::StickyErrorCalls& calls, model::Timestamp tracing_start) {
  std::string note = calls.first_call + " returned ";
  if (const model::StickyError* error = model::FindStickyError(calls.code)) {
    note += std::string(model::StickyErrorName(*error, calls.domain)) + " (" +
            std::string(error->meaning) + ")";
  } else {
    note += "error " + std::to_string(calls.code);
  }
  if (tracing_start != 0 && calls.start >= tracing_start) {
    note += ' ';
    note += FormatTime(static_cast<double>(calls.start - tracing_start), TimeUnit::kAuto);
    note += " after tracing began";
  }
  note += ", on thread " + std::to_string(calls.thread_id) +
          ": a sticky error, the CUDA context was unusable from then on";
  if (calls.failed_calls > 1) {
    note += " (" + std::to_string(calls.failed_calls) + " calls failed with it)";
  }
  return note;
}

}  // namespace gpuscope::analysis

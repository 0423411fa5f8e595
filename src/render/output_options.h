// How the nvprof-style printers (nvprof_summary_format.h, gpu_trace.h, api_trace.h) write the
// reports they aggregate: text or CSV, time unit, kernel names, sections.
#pragma once

#include "util/units.h"

namespace gpuscope::render {

// Time columns: with kAuto each value gets the unit that puts it in [1, 1000) (nvprof's
// 5 significant digits, "9.3230us", "704ns"). With a fixed unit (-u) every time is written
// in that unit at nanosecond resolution with its suffix ("0.165860000s", "3.424us"), and
// the columns widen to fit. CSV always uses one unit for every time cell, named in the
// units row: the fixed unit, or microseconds for kAuto (nvprof's CSV does the same).
struct OutputOptions {
  bool csv = false;
  TimeUnit unit = TimeUnit::kAuto;
  bool demangle = true;  // false: mangled kernel names (nvprof --demangling off)
  // The summary's sections (nvprof --print-gpu-summary / --print-api-summary print one).
  bool gpu_activities = true;
  bool api_calls = true;
};

}  // namespace gpuscope::render

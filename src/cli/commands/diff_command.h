// `gpuscope diff [--match ...] [--format ...] [--fail-on regression] BEFORE AFTER`: the kernels
// of two reports paired by name (or name and launch configuration), with configuration,
// duration and metric changes, which way is better, and whether each exceeds run-to-run noise
// (analysis/diff/report_diff.h says how noise is estimated), and the GPU time projected per
// NVTX range. Works on traced reports (durations) and profiled ones (metrics too).
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// 0 when printed (also when no kernel matches: the output says so); 3 with `--fail-on
// regression` when a kernel's or range's time got worse beyond noise; 2 for usage errors; 1
// when a report cannot be read (a file that is not a gpuscope report: one line naming it).
int DiffCommand(std::span<const std::string> args);

std::string DiffUsage();

}  // namespace gpuscope::cli

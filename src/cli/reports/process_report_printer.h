// What `gpuscope run` prints for each traced process once the program has ended, framed the
// way nvprof frames it:
//   ==PID== Profiling application: <command line>
//   ==PID== Profiling result:
//   <summary or traces>
//   ==PID== Warning: <each loss the report counted>
//   ==PID== Report: <path>
#pragma once

#include <string>
#include <string_view>

#include "cli/launch/manifest_file.h"
#include "cli/options/run_options.h"
#include "cli/output/log_output.h"

namespace gpuscope::cli {

// Finalises the report (the process may have been killed with its WAL not checkpointed),
// opens it and prints it. Returns false when the report could not be read; the reason has
// been printed. `fallback_command_line` is shown when the report has none.
bool PrintProcessReport(const ManifestEntry& entry, const RunOptions& options,
                        std::string_view fallback_command_line, std::string_view working_directory,
                        LogOutput& log);

// `path` relative to `working_directory` when it lies below it (what the user typed in -o,
// usually), else unchanged.
std::string DisplayPath(std::string_view path, std::string_view working_directory);

}  // namespace gpuscope::cli

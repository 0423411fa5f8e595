#include "cli/run_options.h"

#include "cli/option_parser.h"

namespace gpuscope::cli {
namespace {

enum RunOptionId {
  kPrintGpuTrace,
  kPrintApiTrace,
  kPrintGpuSummary,
  kPrintApiSummary,
  kCsv,
  kLogFile,
  kExportProfile,
  kForceOverwrite,
  kReportPermissions,
  kDemangling,
  kTimeUnit,
  kProfileFromStart,
  kProfileChildren,
  kQuiet,
  kNoRules,
  kHelp,
};

constexpr OptionSpec kRunOptions[] = {
    {kExportProfile, "export-profile", 'o', "file",
     "report path pattern (default gpuscope_%p.sqlite); %p pid, %h host, %q{ENV}, %%"},
    {kForceOverwrite, "force-overwrite", 'f', "",
     "overwrite existing reports and log file (never a report with the log)"},
    {kReportPermissions, "report-permissions", 0, "private|umask",
     "reports readable by their owner only (default), or as the umask allows"},
    {kPrintGpuTrace, "print-gpu-trace", 0, "", "print one row per kernel, copy and memset"},
    {kPrintApiTrace, "print-api-trace", 0, "", "print one row per CUDA API call"},
    {kPrintGpuSummary, "print-gpu-summary", 0, "", "print only the GPU activities summary"},
    {kPrintApiSummary, "print-api-summary", 0, "", "print only the API calls summary"},
    {kCsv, "csv", 0, "", "print comma-separated values instead of columns"},
    {kLogFile, "log-file", 0, "file",
     "write gpuscope's output to a file (%1 stdout, %2 stderr, macros as for -o)"},
    {kDemangling, "demangling", 0, "on|off", "demangle kernel names (default on)"},
    {kTimeUnit, "normalized-time-unit", 'u', "s|ms|us|ns|auto", "time unit (default auto)"},
    {kProfileFromStart, "profile-from-start", 0, "on|off",
     "off: record only between cudaProfilerStart and cudaProfilerStop"},
    {kProfileChildren, "profile-child-processes", 0, "on|off",
     "trace child processes too, one report each (default on)"},
    {kQuiet, "quiet", 0, "", "print no summary"},
    {kNoRules, "no-rules", 0, "", "print no findings of the trace rules after the summary"},
    {kHelp, "help", 'h', "", "show this help"},
};

// Applies one parsed option; errors are the option's bad value.
Status Apply(const ParsedOption& option, RunOptions& options) {
  switch (static_cast<RunOptionId>(option.id)) {
    case kPrintGpuTrace:
      options.print.gpu_trace = true;
      return {};
    case kPrintApiTrace:
      options.print.api_trace = true;
      return {};
    case kPrintGpuSummary:
      options.print.gpu_summary = true;
      return {};
    case kPrintApiSummary:
      options.print.api_summary = true;
      return {};
    case kCsv:
      options.output.csv = true;
      return {};
    case kLogFile:
      if (option.value.empty()) return Status::Error("option '--log-file' needs a file name");
      options.log_file = option.value;
      return {};
    case kExportProfile:
      if (option.value.empty()) {
        return Status::Error("option '" + option.spelling + "' needs a file name");
      }
      options.report_pattern = option.value;
      return {};
    case kForceOverwrite:
      options.force_overwrite = true;
      return {};
    case kReportPermissions: {
      StatusOr<ReportPermissions> permissions = ParseReportPermissionsOption(option);
      if (!permissions.ok()) return permissions.status();
      options.report_permissions = *permissions;
      return {};
    }
    case kQuiet:
      options.quiet = true;
      return {};
    case kNoRules:
      options.print_rules = false;
      return {};
    case kHelp:
      options.help = true;
      return {};
    case kTimeUnit: {
      StatusOr<analysis::TimeUnit> unit = analysis::ParseTimeUnit(option.value);
      if (!unit.ok()) {
        return Status::Error("option '" + option.spelling +
                             "' expects s, ms, us, ns or auto, not '" + option.value + "'");
      }
      options.output.unit = unit.value();
      return {};
    }
    case kDemangling:
    case kProfileFromStart:
    case kProfileChildren: {
      StatusOr<bool> on = ParseOnOff(option);
      if (!on.ok()) return on.status();
      if (option.id == kDemangling) options.output.demangle = on.value();
      if (option.id == kProfileFromStart) options.profile_from_start = on.value();
      if (option.id == kProfileChildren) options.follow_children = on.value();
      return {};
    }
  }
  return Status::Error("internal error: unhandled option '" + option.spelling + "'");
}

}  // namespace

StatusOr<RunOptions> ParseRunOptions(std::span<const std::string> args) {
  StatusOr<ParsedCommandLine> parsed =
      ParseOptions(kRunOptions, args, OperandMode::kStopAtFirstOperand);
  if (!parsed.ok()) return parsed.status();
  RunOptions options;
  for (const ParsedOption& option : parsed->options) {
    GPUSCOPE_RETURN_IF_ERROR(Apply(option, options));
  }
  options.program = std::move(parsed->operands);
  if (options.program.empty() && !options.help) {
    return Status::Error("no program given: gpuscope run [options] -- <program> [args]");
  }
  return options;
}

std::string RunUsage() {
  return "Usage: gpuscope run [options] [--] <program> [args]\n"
         "       gpuscope [options] <program> [args]\n"
         "\n"
         "Runs <program> unchanged with CUDA tracing, writes one SQLite report per traced\n"
         "process and prints nvprof's summary of each on stderr. The program's stdin, stdout,\n"
         "stderr and exit code pass through; gpuscope's own lines start with ==PID==.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(kRunOptions);
}

}  // namespace gpuscope::cli

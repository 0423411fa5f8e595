#include "cli/stats_options.h"

#include <algorithm>

#include "analysis/stats_reports.h"
#include "cli/option_parser.h"

namespace gpuscope::cli {
namespace {

enum StatsOptionId {
  kReport,
  kFormat,
  kTimeUnit,
  kDemangling,
  kPage,
  kPrintSummary,
  kRules,
  kHelp
};

constexpr OptionSpec kStatsOptions[] = {
    {kReport, "report", 'r', "name[,name...]",
     "print these nsys-style tables instead of nvprof's summary"},
    {kFormat, "format", 0, "column|csv|json", "output format (default column)"},
    {kTimeUnit, "normalized-time-unit", 'u', "s|ms|us|ns|auto",
     "time unit of the summary (default auto)"},
    {kDemangling, "demangling", 0, "on|off", "demangle kernel names in the summary (default on)"},
    {kPage, "page", 0, "details|raw",
     "the profiled kernels' sections or every metric (reports of gpuscope profile)"},
    {kPrintSummary, "print-summary", 0, "none|per-kernel",
     "with --page details: aggregate the launches of each kernel"},
    {kRules, "rules", 0, "",
     "the trace rules' findings (pageable and synchronous copies, idle gaps, ...)"},
    {kHelp, "help", 'h', "", "show this help"},
};

std::string KnownReportNames() {
  std::string list;
  for (const std::string& name : analysis::StatsReportNames()) {
    if (!list.empty()) list += ", ";
    list += name;
  }
  return list;
}

Status AddReportNames(const std::string& value, std::vector<std::string>& names) {
  const std::vector<std::string>& known = analysis::StatsReportNames();
  std::size_t begin = 0;
  while (begin <= value.size()) {
    std::size_t end = value.find(',', begin);
    if (end == std::string::npos) end = value.size();
    std::string name = value.substr(begin, end - begin);
    begin = end + 1;
    if (name.empty()) continue;
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return Status::Error("unknown report '" + name + "' (known: " + KnownReportNames() + ")");
    }
    names.push_back(std::move(name));
  }
  if (names.empty()) return Status::Error("option '--report' needs at least one name");
  return {};
}

Status Apply(const ParsedOption& option, StatsOptions& options) {
  switch (static_cast<StatsOptionId>(option.id)) {
    case kReport:
      return AddReportNames(option.value, options.report_names);
    case kFormat: {
      StatusOr<render::StatsFormat> format = render::ParseStatsFormat(option.value);
      if (!format.ok()) {
        return Status::Error("option '--format' expects column, csv or json, not '" + option.value +
                             "'");
      }
      options.format = format.value();
      return {};
    }
    case kTimeUnit: {
      StatusOr<analysis::TimeUnit> unit = analysis::ParseTimeUnit(option.value);
      if (!unit.ok()) {
        return Status::Error("option '" + option.spelling +
                             "' expects s, ms, us, ns or auto, not '" + option.value + "'");
      }
      options.output.unit = unit.value();
      return {};
    }
    case kDemangling: {
      StatusOr<bool> on = ParseOnOff(option);
      if (!on.ok()) return on.status();
      options.output.demangle = on.value();
      return {};
    }
    case kPage:
      if (option.value != "details" && option.value != "raw") {
        return Status::Error("option '--page' expects details or raw, not '" + option.value + "'");
      }
      options.page = option.value;
      return {};
    case kPrintSummary:
      if (option.value != "none" && option.value != "per-kernel") {
        return Status::Error("option '--print-summary' expects none or per-kernel, not '" +
                             option.value + "'");
      }
      options.per_kernel_summary = option.value == "per-kernel";
      return {};
    case kRules:
      options.rules = true;
      return {};
    case kHelp:
      options.help = true;
      return {};
  }
  return Status::Error("internal error: unhandled option '" + option.spelling + "'");
}

}  // namespace

StatusOr<StatsOptions> ParseStatsOptions(std::span<const std::string> args) {
  StatusOr<ParsedCommandLine> parsed = ParseOptions(kStatsOptions, args, OperandMode::kInterleaved);
  if (!parsed.ok()) return parsed.status();
  StatsOptions options;
  for (const ParsedOption& option : parsed->options) {
    GPUSCOPE_RETURN_IF_ERROR(Apply(option, options));
  }
  options.report_paths = std::move(parsed->operands);
  if (options.help) return options;
  if (options.report_paths.empty()) return Status::Error("no report given");
  if (options.rules && (options.page || !options.report_names.empty())) {
    return Status::Error("--rules cannot be combined with --page or --report");
  }
  if (options.rules && options.format == render::StatsFormat::kJson) {
    return Status::Error("--rules prints text or CSV, not JSON");
  }
  if (options.page && !options.report_names.empty()) {
    return Status::Error("--page and --report cannot be combined: one prints metrics, the other trace tables");
  }
  if (options.page && options.format == render::StatsFormat::kJson) {
    return Status::Error("--page prints text or CSV, not JSON");
  }
  if (options.report_names.empty() && !options.page &&
      options.format == render::StatsFormat::kJson) {
    return Status::Error("--format json needs --report: nvprof's summary has no JSON form");
  }
  options.output.csv = options.format == render::StatsFormat::kCsv;
  return options;
}

std::string StatsUsage() {
  return "Usage: gpuscope stats [options] <report>...\n"
         "\n"
         "Prints nvprof's summary of one or more reports (one per process or rank, aggregated),\n"
         "or nsys-style tables chosen with --report: " +
         KnownReportNames() +
         ".\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(kStatsOptions);
}

}  // namespace gpuscope::cli

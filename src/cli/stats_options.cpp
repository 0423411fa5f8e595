#include "cli/stats_options.h"

#include <algorithm>

#include "cli/format_option.h"
#include "cli/kernel_filter_options.h"
#include "cli/option_parser.h"
#include "cli/profile_output.h"
#include "cli/source_output.h"
#include "render/stats_report.h"
#include "util/comma_list.h"

namespace gpuscope::cli {
namespace {

enum StatsOptionId {
  kReport,
  kFormat,
  kCsv,
  kTimeUnit,
  kDemangling,
  kPage,
  kPrintSummary,
  kSection,
  kMetrics,
  kRules,
  kPrintSource,
  kSort,
  kHelp
};

constexpr OptionSpec kStatsOwnOptions[] = {
    {kReport, "report", 'r', "name[,name...]",
     "print these nsys-style tables instead of nvprof's summary"},
    FormatOption(kFormat, "column|csv|json"),
    CsvOption(kCsv),
    {kTimeUnit, "normalized-time-unit", 'u', "s|ms|us|ns|auto",
     "time unit of the summary (default auto)"},
    {kDemangling, "demangling", 0, "on|off", "demangle kernel names in the summary (default on)"},
    {kPage, "page", 0, "details|raw|source",
     "the profiled kernels' sections, every metric, or the source page (reports of gpuscope "
     "profile; source: as `gpuscope source`)"},
    {kPrintSource, "print-source", 0, "sass|cuda|cuda,sass",
     "with --page source: sass (default), cuda or cuda,sass rows"},
    {kSort, "sort", 0, "COLUMN", "with --page source: hottest first by this column"},
    {kPrintSummary, "print-summary", 0, "none|per-kernel",
     "per-kernel: aggregate the launches of each kernel (the details page; implies "
     "--page details)"},
    {kSection, "section", 0, "name", "with --page: print only this collected section (repeatable)"},
    {kMetrics, "metrics", 0, "a,b,...",
     "with --page: print only these collected metrics (details: as their own section)"},
    {kRules, "rules", 0, "",
     "the trace rules' findings (pageable and synchronous copies, idle gaps, ...)"},
    {kHelp, "help", 'h', "", "show this help"},
};

// The kernel filters (shared with `profile`) come after the command's own options.
std::span<const OptionSpec> StatsOptionSpecs() {
  static const std::vector<OptionSpec> specs = [] {
    std::vector<OptionSpec> all(std::begin(kStatsOwnOptions), std::end(kStatsOwnOptions));
    std::span<const OptionSpec> print = NvprofSelectionOptionSpecs();
    all.insert(all.begin() + 3, print.begin(), print.end());  // after -r, --format, --csv
    std::vector<OptionSpec> filters = KernelFilterOptionSpecs("print");
    all.insert(all.end(), filters.begin(), filters.end());
    return all;
  }();
  return specs;
}

std::string KnownReportNames() {
  std::string list;
  for (const std::string& name : render::AllStatsReportNames()) {
    if (!list.empty()) list += ", ";
    list += name;
  }
  return list;
}

Status AddReportNames(const std::string& value, std::vector<std::string>& names) {
  const std::vector<std::string>& known = render::AllStatsReportNames();
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
  if (ApplyNvprofSelectionOption(option, options.print)) return {};
  StatusOr<bool> filter = ApplyKernelFilterOption(option, options.filter);
  if (!filter.ok()) return filter.status();
  if (*filter) return {};
  switch (static_cast<StatsOptionId>(option.id)) {
    case kReport:
      return AddReportNames(option.value, options.report_names);
    case kFormat: {
      StatusOr<OutputFormat> format = ParseFormatOption(option.value, kAllFormats);
      if (!format.ok()) return format.status();
      options.format = format.value();
      return {};
    }
    case kCsv:
      options.format = render::StatsFormat::kCsv;
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
    case kDemangling: {
      StatusOr<bool> on = ParseOnOff(option);
      if (!on.ok()) return on.status();
      options.output.demangle = on.value();
      return {};
    }
    case kPage:
      if (option.value != "details" && option.value != "raw" && option.value != "source") {
        return Status::Error("option '--page' expects details, raw or source, not '" +
                             option.value + "'");
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
    case kSection:
      options.sections.push_back(option.value);
      return {};
    case kMetrics:
      for (std::string& name : SplitCommaList(option.value)) options.metrics.push_back(std::move(name));
      if (options.metrics.empty()) return Status::Error("option '--metrics' needs a metric name");
      return {};
    case kRules:
      options.rules = true;
      return {};
    case kPrintSource: {
      StatusOr<render::SourcePrint> print = ParsePrintSource(option.value);
      if (!print.ok()) return print.status();
      options.source_page.print = *print;
      options.source_options_given = true;
      return {};
    }
    case kSort: {
      StatusOr<std::size_t> column = ParseSortColumn(option.value);
      if (!column.ok()) return column.status();
      options.source_page.sort_column = *column;
      options.source_options_given = true;
      return {};
    }
    case kHelp:
      options.help = true;
      return {};
  }
  return Status::Error("internal error: unhandled option '" + option.spelling + "'");
}

bool Given(const ParsedCommandLine& parsed, StatsOptionId id) {
  for (const ParsedOption& option : parsed.options) {
    if (option.id == id) return true;
  }
  return false;
}

// Options that only one kind of output reads are refused, with the reason, where another
// kind is printed: nothing the user asked for is silently ignored.
Status CheckCombinations(const ParsedCommandLine& parsed, StatsOptions& options) {
  bool nvprof_print = options.print.gpu_trace || options.print.api_trace ||
                      options.print.gpu_summary || options.print.api_summary;
  if (options.per_kernel_summary && !options.page) options.page = "details";
  if (nvprof_print && (options.page || !options.report_names.empty() || options.rules)) {
    return Status::Error("--print-* options choose nvprof's tables; they cannot be combined with "
                         "--report, --page or --rules");
  }
  if (nvprof_print && options.format == render::StatsFormat::kJson) {
    return Status::Error("nvprof's summary and traces have no JSON form; for JSON use -r "
                         "cuda_gpu_trace,cuda_api_trace --format json");
  }
  bool nvprof_layout = options.report_names.empty() && !options.page && !options.rules;
  for (StatsOptionId id : {kTimeUnit, kDemangling}) {
    if (nvprof_layout || !Given(parsed, id)) continue;
    return Status::Error(std::string(id == kTimeUnit ? "-u/--normalized-time-unit"
                                                     : "--demangling") +
                         " applies to nvprof's summary and traces only (--report tables are in "
                         "ns with demangled names, as nsys writes them)");
  }
  const bool selects_profiles =
      options.filter.any_given || !options.sections.empty() || !options.metrics.empty();
  if (selects_profiles && !options.page) {
    return Status::Error("-k, -s, -c, --kernel-id, --devices, --section and --metrics select "
                         "profiled kernels and their metrics: they need --page details|raw "
                         "(or --print-summary per-kernel)");
  }
  if (options.source_options_given && options.page != "source") {
    return Status::Error("--print-source and --sort lay out the source page: they need --page "
                         "source");
  }
  if (options.page == "source" &&
      (options.per_kernel_summary || !options.sections.empty() || !options.metrics.empty())) {
    return Status::Error("--page source has no sections or metrics to choose and no per-kernel "
                         "summary (use --sort and --print-source)");
  }
  if (!options.sections.empty() && options.page == "raw") {
    return Status::Error("--section chooses sections of the details page; --page raw has none "
                         "(use --metrics to choose raw metrics)");
  }
  ProfileOutputOptions page;
  page.csv = options.format == render::StatsFormat::kCsv;
  page.page = options.page == "raw" ? ProfilePage::kRaw : ProfilePage::kDetails;
  page.summary = options.per_kernel_summary ? ProfileSummary::kPerKernel : ProfileSummary::kNone;
  return CheckProfileOutputOptions(page);
}

}  // namespace

StatusOr<StatsOptions> ParseStatsOptions(std::span<const std::string> args) {
  StatusOr<ParsedCommandLine> parsed =
      ParseOptions(StatsOptionSpecs(), args, OperandMode::kInterleaved);
  if (!parsed.ok()) return parsed.status();
  StatsOptions options;
  for (const ParsedOption& option : parsed->options) {
    GPUSCOPE_RETURN_IF_ERROR(Apply(option, options));
  }
  options.report_paths = std::move(parsed->operands);
  if (options.help) return options;
  if (options.report_paths.empty()) return Status::Error("no report given");
  GPUSCOPE_RETURN_IF_ERROR(CheckCombinations(*parsed, options));
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
    return Status::Error("--format json needs --report: nvprof's summary and traces have no JSON "
                         "form (-r cuda_gpu_trace,cuda_api_trace are the traces as tables)");
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
         FormatOptionHelp(StatsOptionSpecs());
}

}  // namespace gpuscope::cli

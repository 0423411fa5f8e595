#include "cli/options/stats_options.h"

#include <algorithm>

#include "cli/options/format_option.h"
#include "cli/options/kernel_filter_options.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/reports/profile_output.h"
#include "cli/reports/source_output.h"
#include "render/stats_report.h"
#include "util/comma_list.h"

namespace gpuscope::cli {
namespace {

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

// Which of the nvprof layout's options were given: they are refused with the other layouts.
struct NvprofLayoutOptionsGiven {
  bool time_unit = false;
  bool demangling = false;
};

// The command's own options with nvprof's --print-* (shared with `run`) after -r, --format and
// --csv, then the kernel filters (shared with `profile`).
std::vector<OptionSpec> StatsOptionSpecs(StatsOptions& options, NvprofLayoutOptionsGiven& given) {
  std::vector<OptionSpec> specs = {
      {"report", 'r', "name[,name...]", "print these nsys-style tables instead of nvprof's summary",
       [&options](const ParsedOption& option) {
         return AddReportNames(option.value, options.report_names);
       }},
      FormatOption(options.format),
      CsvOption(options.format),
  };
  std::vector<OptionSpec> print = NvprofSelectionOptionSpecs(options.print);
  specs.insert(specs.end(), print.begin(), print.end());
  std::vector<OptionSpec> own = {
      {"normalized-time-unit", 'u', "s|ms|us|ns|auto", "time unit of the summary (default auto)",
       Marking(given.time_unit, StoreTimeUnit(options.output.unit))},
      {"demangling", 0, "on|off", "demangle kernel names in the summary (default on)",
       Marking(given.demangling, StoreOnOff(options.output.demangle))},
      {"page", 0, "details|raw|source",
       "the profiled kernels' sections, every metric, or the source page (reports of gpuscope "
       "profile; source: as `gpuscope source`)",
       [&options](const ParsedOption& option) {
         if (option.value != "details" && option.value != "raw" && option.value != "source") {
           return Status::Error("option '--page' expects details, raw or source, not '" +
                                option.value + "'");
         }
         options.page = option.value;
         return Status();
       }},
      {"print-source", 0, "sass|cuda|cuda,sass",
       "with --page source: sass (default), cuda or cuda,sass rows",
       Marking(options.source_options_given,
               StoreParsed(options.source_page.print, ParsePrintSource))},
      {"sort", 0, "COLUMN", "with --page source: hottest first by this column",
       Marking(options.source_options_given,
               StoreParsed(options.source_page.sort_column, ParseSortColumn))},
      {"print-summary", 0, "none|per-kernel",
       "per-kernel: aggregate the launches of each kernel (the details page; implies "
       "--page details)",
       [&options](const ParsedOption& option) {
         if (option.value != "none" && option.value != "per-kernel") {
           return Status::Error("option '--print-summary' expects none or per-kernel, not '" +
                                option.value + "'");
         }
         options.per_kernel_summary = option.value == "per-kernel";
         return Status();
       }},
      {"section", 0, "name", "with --page: print only this collected section (repeatable)",
       AppendText(options.sections)},
      {"metrics", 0, "a,b,...",
       "with --page: print only these collected metrics (details: as their own section)",
       [&options](const ParsedOption& option) {
         for (std::string& name : SplitCommaList(option.value)) {
           options.metrics.push_back(std::move(name));
         }
         if (options.metrics.empty())
           return Status::Error("option '--metrics' needs a metric name");
         return Status();
       }},
      {"rules", 0, "",
       "the trace rules' findings (pageable and synchronous copies, idle gaps, ...)",
       SetFlag(options.rules)},
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
  specs.insert(specs.end(), std::make_move_iterator(own.begin()),
               std::make_move_iterator(own.end()));
  std::vector<OptionSpec> filters = KernelFilterOptionSpecs("print", options.filter);
  specs.insert(specs.end(), std::make_move_iterator(filters.begin()),
               std::make_move_iterator(filters.end()));
  return specs;
}

// Options that only one kind of output reads are refused, with the reason, where another
// kind is printed: nothing the user asked for is silently ignored.
Status CheckCombinations(const NvprofLayoutOptionsGiven& given, StatsOptions& options) {
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
  if (!nvprof_layout && (given.time_unit || given.demangling)) {
    return Status::Error(
        std::string(given.time_unit ? "-u/--normalized-time-unit" : "--demangling") +
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
  StatsOptions options;
  NvprofLayoutOptionsGiven given;
  StatusOr<std::vector<std::string>> reports =
      ParseReportsCommandLine(StatsOptionSpecs(options, given), args, options.help);
  if (!reports.ok()) return reports.status();
  options.report_paths = std::move(*reports);
  if (options.help) return options;
  GPUSCOPE_RETURN_IF_ERROR(CheckCombinations(given, options));
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
  // The declarations need fields to name; none is filled.
  StatsOptions described;
  NvprofLayoutOptionsGiven given;
  return "Usage: gpuscope stats [options] <report>...\n"
         "\n"
         "Prints nvprof's summary of one or more reports (one per process or rank, aggregated),\n"
         "or nsys-style tables chosen with --report: " +
         KnownReportNames() +
         ".\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(StatsOptionSpecs(described, given));
}

}  // namespace gpuscope::cli

#include "cli/commands/ranks_command.h"

#include <iostream>
#include <sstream>

#include "analysis/ranks/clock_alignment.h"
#include "analysis/ranks/comm_tables.h"
#include "analysis/ranks/rank_align_table.h"
#include "cli/options/command_prologue.h"
#include "cli/options/format_option.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/reports/distinct_reports.h"
#include "render/ranks_page.h"

namespace gpuscope::cli {
namespace {

struct RanksOptions {
  OutputFormat format = OutputFormat::kColumn;
  std::size_t threads = 0;
  std::vector<std::string> reports;
  bool help = false;
};

StatusOr<unsigned> ParseThreads(const ParsedOption& option) {
  unsigned threads = 0;
  for (char c : option.value) {
    if (c < '0' || c > '9' || threads > 10'000) {
      threads = 0;
      break;
    }
    threads = threads * 10 + static_cast<unsigned>(c - '0');
  }
  if (threads == 0 || threads > 10'000) {
    return Status::Error("option '" + option.spelling + "' expects a number of threads from 1 " +
                         "to 10000, not '" + option.value + "'");
  }
  return threads;
}

std::vector<OptionSpec> RanksOptionSpecs(RanksOptions& options) {
  return {
      FormatOption(options.format),
      CsvOption(options.format),
      {"threads", 'j', "N", "read N reports at a time (default: one per core)",
       [&options](const ParsedOption& option) {
         StatusOr<unsigned> threads = ParseThreads(option);
         if (!threads.ok()) return threads.status();
         options.threads = *threads;
         return Status();
       }},
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
}

StatusOr<RanksOptions> ParseRanksOptions(std::span<const std::string> args) {
  RanksOptions options;
  StatusOr<std::vector<std::string>> reports =
      ParseReportsCommandLine(RanksOptionSpecs(options), args, options.help);
  if (!reports.ok()) return reports.status();
  options.reports = std::move(*reports);
  return options;
}

}  // namespace

std::string RanksUsage() {
  RanksOptions described;  // the declarations need fields to name; none is filled
  return "Usage: gpuscope ranks [--format column|csv|json | --csv] [-j N] REPORT...\n"
         "\n"
         "The reports of one multi-rank job (one per rank: `gpuscope run -o rank%q{RANK}`) on\n"
         "one page. rank_align: each report's clock offset onto the lowest rank's, with its\n"
         "error bound and how it was found. rank_comm_sum: per rank on that aligned axis, ns:\n"
         "span of GPU activity, compute (kernels other than NCCL's), communication (NCCL's\n"
         "kernels), their overlap, exposed communication (not overlapped), idle time waiting\n"
         "for the host (the launch call came after the GPU went idle) or other, and the wait\n"
         "on other ranks in collectives. nccl_sum: NCCL's kernels per collective and its API\n"
         "calls (NVTX ranges of the domain NCCL). Then the rank rules' findings\n"
         "(rank_straggler, rank_imbalance, exposed_communication: `gpuscope rules --list`).\n"
         "The same tables: `gpuscope stats --report rank_align,rank_comm_sum,nccl_sum`.\n"
         "\n" +
         FormatOptionHelp(RanksOptionSpecs(described));
}

int RanksCommand(std::span<const std::string> args) {
  StatusOr<RanksOptions> parsed = ParseRanksOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, RanksUsage(), "ranks", CommandError)) {
    return *exit_code;
  }
  RanksOptions options = std::move(parsed.value());
  DistinctReports distinct = DropRepeatedReports(options.reports);
  for (const std::string& note : distinct.notes) std::cerr << "gpuscope: warning: " << note << '\n';

  StatusOr<std::vector<analysis::ranks::RankClock>> clocks =
      analysis::ranks::AlignReports(distinct.paths);
  if (!clocks.ok()) {
    CommandError(clocks.status().message());
    return kExitGpuscopeFailure;
  }
  StatusOr<analysis::ranks::CommAnalysis> analysis =
      analysis::ranks::AnalyzeCommunication(*clocks, options.threads);
  if (!analysis.ok()) {
    CommandError(analysis.status().message());
    return kExitGpuscopeFailure;
  }
  for (const std::string& warning : analysis->warnings) {
    std::cerr << "gpuscope: warning: " << warning << '\n';
  }
  render::RanksPage page;
  page.tables = {analysis::ranks::RankAlignTable(*clocks),
                 analysis::ranks::RankCommSumTable(*analysis),
                 analysis::ranks::NcclSumTable(*analysis)};
  page.findings = analysis->findings;
  page.notes = analysis::ranks::CommunicationNotes(*analysis);
  std::ostringstream out;
  render::WriteRanksPage(page, options.format, out);
  std::cout << out.str();
  std::cout.flush();
  return kExitOk;
}

}  // namespace gpuscope::cli

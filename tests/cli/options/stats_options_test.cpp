#include "cli/options/stats_options.h"

#include <gtest/gtest.h>

#include "analysis/stats_reports.h"

namespace gpuscope::cli {
namespace {

StatusOr<StatsOptions> Parse(std::vector<std::string> args) { return ParseStatsOptions(args); }

TEST(StatsOptions, DefaultsToTheNvprofSummaryOfAllReports) {
  StatusOr<StatsOptions> parsed = Parse({"a.sqlite", "b.sqlite"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_TRUE(parsed->report_names.empty());
  EXPECT_EQ(parsed->format, render::StatsFormat::kColumn);
  EXPECT_FALSE(parsed->output.csv);
  EXPECT_EQ(parsed->report_paths, (std::vector<std::string>{"a.sqlite", "b.sqlite"}));
}

TEST(StatsOptions, ParsesEveryOptionInBothSpellings) {
  StatusOr<StatsOptions> parsed =
      Parse({"--report", "cuda_api_sum,nvtx_sum", "a.sqlite", "-r", "cuda_gpu_kern_sum",
             "--format=csv", "b.sqlite"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->report_names,
            (std::vector<std::string>{"cuda_api_sum", "nvtx_sum", "cuda_gpu_kern_sum"}));
  EXPECT_EQ(parsed->format, render::StatsFormat::kCsv);
  EXPECT_TRUE(parsed->output.csv);
  EXPECT_EQ(parsed->report_paths, (std::vector<std::string>{"a.sqlite", "b.sqlite"}));

  // -u and --demangling shape nvprof's summary and traces (the -r tables are nsys's: ns).
  parsed = Parse({"--csv", "-u", "ms", "--demangling", "off", "--print-gpu-trace", "a.sqlite"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->format, render::StatsFormat::kCsv);
  EXPECT_EQ(parsed->output.unit, TimeUnit::kMilliseconds);
  EXPECT_FALSE(parsed->output.demangle);
  EXPECT_TRUE(parsed->print.gpu_trace);

  parsed = Parse({"--report=cuda_gpu_mem_time_sum", "--format", "json", "a.sqlite"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->report_names, std::vector<std::string>{"cuda_gpu_mem_time_sum"});
  EXPECT_EQ(parsed->format, render::StatsFormat::kJson);

  parsed = Parse({"--normalized-time-unit=us", "--demangling=on", "a.sqlite"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->output.unit, TimeUnit::kMicroseconds);
}

TEST(StatsOptions, AcceptsEveryKnownReportName) {
  for (const std::string& name : analysis::StatsReportNames()) {
    StatusOr<StatsOptions> parsed = Parse({"--report", name, "a.sqlite"});
    ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.status().message();
    EXPECT_EQ(parsed->report_names, std::vector<std::string>{name});
  }
}

TEST(StatsOptions, UnknownReportNameListsTheKnownOnes) {
  StatusOr<StatsOptions> parsed = Parse({"--report", "cuda_api_sum,gpu_kern", "a.sqlite"});
  ASSERT_FALSE(parsed.ok());
  const std::string& message = parsed.status().message();
  EXPECT_EQ(message.rfind("unknown report 'gpu_kern' (known: ", 0), 0u) << message;
  for (const std::string& name : analysis::StatsReportNames()) {
    EXPECT_NE(message.find(name), std::string::npos) << name;
  }
}

TEST(StatsOptions, RejectsBadInput) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{}, "no report given"},
      {{"--format", "csv"}, "no report given"},
      {{"--format", "xml", "a.sqlite"}, "option '--format' expects column, csv or json, not 'xml'"},
      {{"--format", "json", "a.sqlite"},
       "--format json needs --report: nvprof's summary and traces have no JSON form (-r "
       "cuda_gpu_trace,cuda_api_trace are the traces as tables)"},
      {{"--report", ",", "a.sqlite"}, "option '--report' needs at least one name"},
      {{"-u", "hours", "a.sqlite"}, "option '-u' expects s, ms, us, ns or auto, not 'hours'"},
      {{"--bogus", "a.sqlite"}, "unknown option '--bogus'"},
  };
  for (const auto& [args, message] : cases) {
    StatusOr<StatsOptions> parsed = Parse(args);
    ASSERT_FALSE(parsed.ok()) << message;
    EXPECT_EQ(parsed.status().message(), message);
  }
}

TEST(StatsOptions, HelpNeedsNoReport) {
  StatusOr<StatsOptions> parsed = Parse({"--help"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->help);
}

}  // namespace
}  // namespace gpuscope::cli

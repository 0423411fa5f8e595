#include "cli/options/run_options.h"

#include <gtest/gtest.h>

namespace gpuscope::cli {
namespace {

StatusOr<RunOptions> ParseRun(std::vector<std::string> args) { return ParseRunOptions(args); }

TEST(RunOptions, DefaultsAreNvprofs) {
  StatusOr<RunOptions> parsed = ParseRun({"./app"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const RunOptions& o = parsed.value();
  EXPECT_FALSE(o.print.gpu_trace || o.print.api_trace || o.print.gpu_summary ||
               o.print.api_summary || o.traced.quiet || o.traced.force_overwrite || o.help);
  EXPECT_FALSE(o.output.csv);
  EXPECT_TRUE(o.output.demangle);
  EXPECT_EQ(o.output.unit, TimeUnit::kAuto);
  EXPECT_FALSE(o.log_file.has_value());
  EXPECT_EQ(o.traced.report_pattern, "gpuscope_%p.sqlite");
  EXPECT_TRUE(o.profile_from_start);
  EXPECT_TRUE(o.follow_children);
  EXPECT_EQ(o.traced.report_permissions, ReportPermissions::kPrivate);
  EXPECT_EQ(o.program, std::vector<std::string>{"./app"});
}

TEST(RunOptions, TraceScopeDefaultsAndOptions) {
  StatusOr<RunOptions> plain = ParseRun({"./app"});
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->trace.cuda_api && plain->trace.cuda_gpu && plain->trace.nvtx);
  EXPECT_EQ(plain->trace.api_capture, kDefaultApiCapture);
  EXPECT_EQ(plain->trace.cuda_graph_trace, CudaGraphTrace::kNode);

  StatusOr<RunOptions> parsed = ParseRun(
      {"--trace", "cuda-gpu", "--api-capture", "callback", "--cuda-graph-trace", "graph", "./app"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_FALSE(parsed->trace.cuda_api);
  EXPECT_TRUE(parsed->trace.cuda_gpu);
  EXPECT_FALSE(parsed->trace.nvtx);
  EXPECT_EQ(parsed->trace.api_capture, ApiCapture::kCallback);
  EXPECT_EQ(parsed->trace.cuda_graph_trace, CudaGraphTrace::kGraph);
  EXPECT_EQ(TraceListName(parsed->trace), "cuda-gpu");

  StatusOr<RunOptions> nvtx_only = ParseRun({"-t", "nvtx", "./app"});
  ASSERT_TRUE(nvtx_only.ok());
  EXPECT_EQ(TraceListName(nvtx_only->trace), "nvtx");
  StatusOr<RunOptions> none = ParseRun({"--trace=none", "./app"});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(TraceListName(none->trace), "none");
}

TEST(RunOptions, UnknownTraceNamesAreOneLineErrorsNamingTheValidOnes) {
  StatusOr<RunOptions> osrt = ParseRun({"--trace", "cuda,osrt", "./app"});
  ASSERT_FALSE(osrt.ok());
  EXPECT_EQ(osrt.status().message(),
            "--trace: unknown name 'osrt' (valid: cuda, cuda-gpu, nvtx, none)");
  StatusOr<RunOptions> mixed = ParseRun({"--trace", "none,cuda", "./app"});
  ASSERT_FALSE(mixed.ok());
  EXPECT_EQ(mixed.status().message(), "--trace none cannot be combined with other names");
  StatusOr<RunOptions> capture = ParseRun({"--api-capture", "sampling", "./app"});
  ASSERT_FALSE(capture.ok());
  EXPECT_EQ(capture.status().message(),
            "--api-capture: unknown method 'sampling' (valid: activity, callback)");
  StatusOr<RunOptions> graph = ParseRun({"--cuda-graph-trace", "nodes", "./app"});
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().message(),
            "--cuda-graph-trace: unknown value 'nodes' (valid: graph, node)");
}

TEST(RunOptions, ParsesEveryOption) {
  StatusOr<RunOptions> parsed = ParseRun({"--print-gpu-trace",
                                          "--print-api-trace",
                                          "--print-gpu-summary",
                                          "--print-api-summary",
                                          "--csv",
                                          "--log-file",
                                          "log_%p.txt",
                                          "--export-profile",
                                          "rank%q{RANK}.sqlite",
                                          "--force-overwrite",
                                          "--report-permissions",
                                          "umask",
                                          "--demangling",
                                          "off",
                                          "--normalized-time-unit",
                                          "ms",
                                          "--profile-from-start",
                                          "off",
                                          "--profile-child-processes",
                                          "off",
                                          "--quiet",
                                          "--",
                                          "python3",
                                          "train.py",
                                          "--epochs",
                                          "2"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const RunOptions& o = parsed.value();
  EXPECT_TRUE(o.print.gpu_trace);
  EXPECT_TRUE(o.print.api_trace);
  EXPECT_TRUE(o.print.gpu_summary);
  EXPECT_TRUE(o.print.api_summary);
  EXPECT_TRUE(o.output.csv);
  EXPECT_EQ(o.log_file, "log_%p.txt");
  EXPECT_EQ(o.traced.report_pattern, "rank%q{RANK}.sqlite");
  EXPECT_TRUE(o.traced.force_overwrite);
  EXPECT_EQ(o.traced.report_permissions, ReportPermissions::kUmask);
  EXPECT_FALSE(o.output.demangle);
  EXPECT_EQ(o.output.unit, TimeUnit::kMilliseconds);
  EXPECT_FALSE(o.profile_from_start);
  EXPECT_FALSE(o.follow_children);
  EXPECT_TRUE(o.traced.quiet);
  EXPECT_EQ(o.program, (std::vector<std::string>{"python3", "train.py", "--epochs", "2"}));
}

TEST(RunOptions, AcceptsEqualsAndShortSpellings) {
  StatusOr<RunOptions> parsed =
      ParseRun({"--log-file=%2", "-o", "a.sqlite", "-f", "--demangling=on", "-u", "us",
                "--profile-from-start=on", "--profile-child-processes=on", "./app"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->log_file, "%2");
  EXPECT_EQ(parsed->traced.report_pattern, "a.sqlite");
  EXPECT_TRUE(parsed->traced.force_overwrite);
  EXPECT_TRUE(parsed->output.demangle);
  EXPECT_EQ(parsed->output.unit, TimeUnit::kMicroseconds);
  EXPECT_TRUE(parsed->profile_from_start);
  EXPECT_TRUE(parsed->follow_children);

  parsed = ParseRun({"--export-profile=b.sqlite", "--normalized-time-unit=ns", "-us", "./app"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->traced.report_pattern, "b.sqlite");
  EXPECT_EQ(parsed->output.unit, TimeUnit::kSeconds);  // the later one wins
}

TEST(RunOptions, EveryTimeUnitParses) {
  const std::pair<const char*, TimeUnit> units[] = {
      {"s", TimeUnit::kSeconds},
      {"ms", TimeUnit::kMilliseconds},
      {"us", TimeUnit::kMicroseconds},
      {"ns", TimeUnit::kNanoseconds},
      {"auto", TimeUnit::kAuto}};
  for (const auto& [text, unit] : units) {
    StatusOr<RunOptions> parsed = ParseRun({"-u", text, "./app"});
    ASSERT_TRUE(parsed.ok()) << text;
    EXPECT_EQ(parsed->output.unit, unit) << text;
  }
}

TEST(RunOptions, ShorthandStopsAtTheProgram) {
  // `gpuscope ./app -o x`: "-o x" belongs to the program.
  StatusOr<RunOptions> parsed = ParseRun({"--csv", "./app", "-o", "x", "--", "y"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->traced.report_pattern, "gpuscope_%p.sqlite");
  EXPECT_EQ(parsed->program, (std::vector<std::string>{"./app", "-o", "x", "--", "y"}));
}

TEST(RunOptions, HelpNeedsNoProgram) {
  StatusOr<RunOptions> parsed = ParseRun({"-h"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->help);
  parsed = ParseRun({"--help"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->help);
}

struct BadRun {
  std::vector<std::string> args;
  std::string message;
};

TEST(RunOptions, RejectsBadInputWithOneLine) {
  const BadRun cases[] = {
      {{}, "no program given: gpuscope run [options] -- <program> [args]"},
      {{"--csv", "--"}, "no program given: gpuscope run [options] -- <program> [args]"},
      {{"--no-such-option", "./app"}, "unknown option '--no-such-option'"},
      {{"--demangling", "maybe", "./app"},
       "option '--demangling' expects 'on' or 'off', not 'maybe'"},
      {{"--profile-from-start=no", "./app"},
       "option '--profile-from-start' expects 'on' or 'off', not 'no'"},
      {{"--profile-child-processes", "1", "./app"},
       "option '--profile-child-processes' expects 'on' or 'off', not '1'"},
      {{"--report-permissions", "0644", "./app"},
       "option '--report-permissions' expects 'private' or 'umask', not '0644'"},
      {{"-u", "minutes", "./app"}, "option '-u' expects s, ms, us, ns or auto, not 'minutes'"},
      {{"-o", "", "./app"}, "option '-o' needs a file name"},
      {{"--log-file=", "./app"}, "option '--log-file' needs a file name"},
      {{"./app", "--csv"}, ""},  // not an error: --csv goes to the program
      {{"--quiet=yes", "./app"}, "option '--quiet' takes no value"},
      {{"--log-file"}, "option '--log-file' needs a value <file>"},
  };
  for (const BadRun& c : cases) {
    StatusOr<RunOptions> parsed = ParseRun(c.args);
    if (c.message.empty()) {
      EXPECT_TRUE(parsed.ok());
      continue;
    }
    ASSERT_FALSE(parsed.ok()) << c.message;
    EXPECT_EQ(parsed.status().message(), c.message);
    EXPECT_EQ(parsed.status().message().find('\n'), std::string::npos);
  }
}

TEST(RunOptions, UsageDocumentsEveryOption) {
  std::string usage = RunUsage();
  for (const char* option :
       {"--print-gpu-trace", "--print-api-trace", "--print-gpu-summary", "--print-api-summary",
        "--csv", "--log-file", "-o, --export-profile", "-f, --force-overwrite", "--demangling",
        "-u, --normalized-time-unit", "--profile-from-start", "--profile-child-processes",
        "--quiet", "--report-permissions", "-h, --help"}) {
    EXPECT_NE(usage.find(option), std::string::npos) << option;
  }
}

}  // namespace
}  // namespace gpuscope::cli

namespace gpuscope::cli {
namespace {

TEST(RunOptionsGpuMetrics, DefaultSetAndRate) {
  StatusOr<RunOptions> parsed = ParseRunOptions(std::vector<std::string>{"--gpu-metrics", "./app"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->gpu_metrics_set, "default");
  EXPECT_EQ(parsed->gpu_metrics_frequency_hz, 10'000u);
  EXPECT_FALSE(parsed->list_gpu_metrics);
}

TEST(RunOptionsGpuMetrics, SetAndFrequency) {
  StatusOr<RunOptions> parsed = ParseRunOptions(std::vector<std::string>{
      "--gpu-metrics", "--gpu-metrics-set", "memory", "--gpu-metrics-frequency=2000", "./app"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->gpu_metrics_set, "memory");
  EXPECT_EQ(parsed->gpu_metrics_frequency_hz, 2000u);
}

TEST(RunOptionsGpuMetrics, BadValuesAreOneLineUsageErrors) {
  StatusOr<RunOptions> set =
      ParseRunOptions(std::vector<std::string>{"--gpu-metrics-set", "nope", "./app"});
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().message(),
            "option '--gpu-metrics-set': unknown set 'nope' (sets: default, compute, memory; "
            "'list' describes them)");
  EXPECT_FALSE(ParseRunOptions(std::vector<std::string>{"--gpu-metrics",
                                                        "--gpu-metrics-frequency", "5", "./app"})
                   .ok());
  EXPECT_FALSE(ParseRunOptions(std::vector<std::string>{"--gpu-metrics",
                                                        "--gpu-metrics-frequency", "1k", "./app"})
                   .ok());
  StatusOr<RunOptions> alone =
      ParseRunOptions(std::vector<std::string>{"--gpu-metrics-frequency", "100", "./app"});
  ASSERT_FALSE(alone.ok());
  EXPECT_EQ(alone.status().message(), "option '--gpu-metrics-frequency' needs --gpu-metrics");
}

TEST(RunOptionsGpuMetrics, ListNeedsNoProgram) {
  StatusOr<RunOptions> list =
      ParseRunOptions(std::vector<std::string>{"--gpu-metrics", "--list", "--chip", "gh100"});
  ASSERT_TRUE(list.ok()) << list.status().message();
  EXPECT_TRUE(list->list_gpu_metrics);
  EXPECT_EQ(list->gpu_metrics_chip, "gh100");
  StatusOr<RunOptions> by_set =
      ParseRunOptions(std::vector<std::string>{"--gpu-metrics-set", "list"});
  ASSERT_TRUE(by_set.ok());
  EXPECT_TRUE(by_set->list_gpu_metrics);
}

}  // namespace
}  // namespace gpuscope::cli

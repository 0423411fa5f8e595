// Metric values that cannot be true are never printed as facts (analysis/
// value_range.h): every command that shows the metrics of a report leaves them out,
// prints "n/a" in their place and says in one warning how many it left out and why. The
// profile recorded on the H100 (tests/data/reports) is mutated with SQL in a scratch
// directory, as damaged counter data or a damaged file would leave it.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "../../export/test_reports.h"
#include "../../support/gpuscope_process.h"
#include "../recorded_reports.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::Finished;
using testing::RunGpuscope;
using testing::TempDir;

// Kernel 1 (k_saxpy) gets a memory throughput of 1,042,392,291.90 %, a negative duration, an
// infinite SM frequency and INT64_MAX instructions; kernel 2 (k_saxpy again) a duration
// stored as the text 'NaN', which SQLite reads as 0.
constexpr const char* kImpossibleValues =
    "UPDATE kernel_metrics SET value = 1042392291.90 WHERE profiled_kernel_id = 1 AND metric = "
    "'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed';"
    "UPDATE kernel_metrics SET value = -287200 WHERE profiled_kernel_id = 1 AND metric = "
    "'gpu__time_duration.sum';"
    "UPDATE kernel_metrics SET value = 9e999 WHERE profiled_kernel_id = 1 AND metric IN "
    "('gpc__cycles_elapsed.avg.per_second', 'sm__cycles_elapsed.avg.per_second');"
    "UPDATE kernel_metrics SET value = 9223372036854775807 WHERE profiled_kernel_id = 1 AND "
    "metric = 'smsp__inst_executed.sum';"
    "UPDATE kernel_metrics SET value = 'NaN' WHERE profiled_kernel_id = 2 AND metric = "
    "'gpu__time_duration.sum';";

constexpr const char* kWarning =
    "6 metric values of profiled kernels cannot be true (1 percentage outside -1% to 1000%, 1 "
    "negative count, duration or rate, 1 count or duration above 2^53, 3 values that are not "
    "finite numbers): left out";

// The recorded profile at dir/<name>, with `sql` run on it when given.
std::string RecordedProfile(const TempDir& dir, const std::string& name,
                            const std::string& sql = "") {
  std::string path = dir.File(name);
  std::filesystem::copy_file(testing::RecordedReport("h100_metrics_full.sqlite"), path);
  if (!sql.empty()) exporter::testing::ExecSql(path, sql);
  return path;
}

bool IsWordCharacter(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `word` stands in `text` as a word of its own ("inf", not "info").
bool HasWord(const std::string& text, const std::string& word) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !IsWordCharacter(text[at - 1]);
    const std::size_t end = at + word.size();
    if (starts && (end == text.size() || !IsWordCharacter(text[end]))) return true;
  }
  return false;
}

// None of the mutated values, in any of the ways gpuscope writes numbers, nor what arithmetic
// on them gives.
void ExpectNoImpossibleValue(const std::string& out, const std::string& command) {
  for (const char* printed : {"1,042,392,291", "1042392291", "-287", "9,223,372,036,854,775",
                              "9223372036854775", "-100.0%"}) {
    EXPECT_EQ(out.find(printed), std::string::npos) << command << " printed " << printed;
  }
  for (const char* word : {"inf", "nan", "Infinity", "NaN"}) {
    EXPECT_FALSE(HasWord(out, word)) << command << " printed " << word;
  }
}

// The first line of `text` that starts with `prefix`, or "".
std::string LineStartingWith(const std::string& text, const std::string& prefix) {
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (text.compare(at, prefix.size(), prefix) == 0) return text.substr(at, end - at);
    at = end + 1;
  }
  return "";
}

TEST(ImpossibleMetricValues, TheDetailsPageShowsNotAvailableAndWarnsOnce) {
  TempDir dir;
  const std::string report = RecordedProfile(dir, "r.sqlite", kImpossibleValues);
  for (std::vector<std::string> args :
       {std::vector<std::string>{"stats", "--page", "details", report},
        std::vector<std::string>{"stats", "--page", "raw", report},
        std::vector<std::string>{"stats", "--page", "details", "--format", "csv", report}}) {
    Finished shown = RunGpuscope(args);
    EXPECT_EQ(shown.exit_code, 0) << shown.err;
    ExpectNoImpossibleValue(shown.out, args[2]);
    EXPECT_EQ(shown.err, "gpuscope: warning: " + report + ": " + kWarning + "\n");
  }
  // The first launch of k_saxpy is kernel 1: its values are said to be missing.
  Finished details =
      RunGpuscope({"stats", "--page", "details", "-k", "k_saxpy", "-c", "1", report});
  const std::string duration = LineStartingWith(details.out, "    Duration ");
  const std::string throughput = LineStartingWith(details.out, "    Memory Throughput ");
  EXPECT_TRUE(duration.ends_with(" n/a")) << duration;
  EXPECT_TRUE(throughput.ends_with(" n/a")) << throughput;
}

TEST(ImpossibleMetricValues, TheRooflineHasNoInfiniteOrNotANumber) {
  TempDir dir;
  const std::string report = RecordedProfile(dir, "r.sqlite", kImpossibleValues);
  for (std::vector<std::string> args : {std::vector<std::string>{"roofline", report},
                                        std::vector<std::string>{"roofline", "--csv", report}}) {
    Finished roofline = RunGpuscope(args);
    EXPECT_EQ(roofline.exit_code, 0) << roofline.err;
    ExpectNoImpossibleValue(roofline.out, args[1]);
    EXPECT_NE(roofline.err.find("gpuscope: warning: " + report + ": " + kWarning + "\n"),
              std::string::npos)
        << roofline.err;
  }
}

TEST(ImpossibleMetricValues, DiffComparesOnlyWhatCanBeTrue) {
  TempDir dir;
  const std::string before = RecordedProfile(dir, "before.sqlite");
  const std::string after = RecordedProfile(dir, "after.sqlite", kImpossibleValues);
  for (const char* format : {"column", "csv", "json"}) {
    Finished diff = RunGpuscope({"diff", "--all", "--format", format, before, after});
    EXPECT_EQ(diff.exit_code, 0) << diff.err;
    ExpectNoImpossibleValue(diff.out, format);
    EXPECT_EQ(diff.err, "gpuscope: warning: " + after + ": " + kWarning + "\n") << format;
  }
}

TEST(ImpossibleMetricValues, TheHtmlReportWarnsAndShowsNone) {
  TempDir dir;
  const std::string report = RecordedProfile(dir, "r.sqlite", kImpossibleValues);
  const std::string html = dir.File("r.html");
  Finished written = RunGpuscope({"report", "-o", html, report});
  ASSERT_EQ(written.exit_code, 0) << written.err;
  const std::string page = testing::ReadWholeFile(html);
  EXPECT_NE(page.find(kWarning), std::string::npos);
  EXPECT_EQ(page.find("1042392291"), std::string::npos);
  EXPECT_EQ(page.find("9223372036854775807"), std::string::npos);
}

TEST(ImpossibleMetricValues, AnUndamagedProfileHasNoWarning) {
  TempDir dir;
  const std::string report = RecordedProfile(dir, "r.sqlite");
  Finished details = RunGpuscope({"stats", "--page", "details", report});
  EXPECT_EQ(details.exit_code, 0) << details.err;
  EXPECT_EQ(details.err, "");
  Finished roofline = RunGpuscope({"roofline", report});
  EXPECT_EQ(roofline.err, "");
}

}  // namespace
}  // namespace gpuscope::cli

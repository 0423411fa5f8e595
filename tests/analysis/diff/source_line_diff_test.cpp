// `gpuscope diff` per source line, run as a user would on two reports built from the source
// probe's recorded values (tests/support/probe_source_report): the second with some
// instruction values changed through the store's test fixtures, as another run of a changed
// program would record them. The changed lines come first in text and JSON, joined by file:line
// (or by SASS offset without line information), and --fail-on keeps its meaning.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "../../support/gpuscope_process.h"
#include "../../support/json_checker.h"
#include "../../support/json_expect.h"
#include "../../support/probe_source_report.h"
#include "analysis/source/source_summary.h"
#include "store/report_reader.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis::diff {
namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParsedJsonOrFail;
using cli::testing::RunGpuscope;

constexpr const char* kExecuted = "smsp__sass_inst_executed";

const JsonValue* ProbeKernel(const JsonValue& diff) {
  for (const JsonValue& kernel : diff.Find("kernels")->array) {
    if (kernel.Find("name")->text == gpuscope::testing::kProbeKernelName) return &kernel;
  }
  return nullptr;
}

class SourceLineDiffTest : public ::testing::Test {
 protected:
  // The before report, and its source page as analysis/source reads it.
  void SetUp() override {
    before_ = dir_.File("before.sqlite");
    ASSERT_TRUE(gpuscope::testing::WriteProbeSourceReport({.path = before_}).ok());
    auto reader = store::ReportReader::Open(before_);
    ASSERT_TRUE(reader.ok());
    auto sources = source::LoadKernelSources(**reader);
    ASSERT_TRUE(sources.ok());
    for (auto& [id, page] : *sources) {
      if (!page.instructions.empty()) page_ = page;
    }
    ASSERT_FALSE(page_.instructions.empty());
  }
  // The instruction with the most executions, and the one with the fewest (at least one) on
  // another line.
  const source::InstructionRow& Hottest() const {
    return *std::max_element(page_.instructions.begin(), page_.instructions.end(),
                             [](const auto& a, const auto& b) {
                               return a.values[0].value_or(0) < b.values[0].value_or(0);
                             });
  }
  const source::InstructionRow& ColdestElsewhere() const {
    const source::InstructionRow* coldest = nullptr;
    for (const source::InstructionRow& row : page_.instructions) {
      if (row.line == Hottest().line || row.values[0].value_or(0) == 0) continue;
      if (!coldest || *row.values[0] < *coldest->values[0]) coldest = &row;
    }
    EXPECT_NE(coldest, nullptr);
    return *coldest;
  }
  // The after report: `extra` more executions of each instruction at (pc, extra).
  std::string After(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& extra,
                    bool keep_lines = true) {
    const std::string path = dir_.File("after" + std::to_string(++reports_) + ".sqlite");
    Status written = gpuscope::testing::WriteProbeSourceReport(
        {.path = path,
         .edit_values =
             [&extra](std::vector<model::InstructionValue>& values) {
               for (model::InstructionValue& value : values) {
                 for (const auto& [pc, more] : extra) {
                   if (value.pc_offset == pc && value.metric == kExecuted) value.value += more;
                 }
               }
             },
         .keep_lines = keep_lines});
    EXPECT_TRUE(written.ok()) << written.message();
    return path;
  }
  std::string Location(const source::InstructionRow& row) const {
    return source::FileBaseName(*row.file) + ":" + std::to_string(*row.line);
  }

  store::testing::ScratchDir dir_;
  std::string before_;
  source::KernelSource page_;
  int reports_ = 0;
};

TEST_F(SourceLineDiffTest, ChangedLinesComeBiggestChangeFirstInJsonAndText) {
  const source::InstructionRow& hot = Hottest();
  const source::InstructionRow& cold = ColdestElsewhere();
  const std::uint64_t hot_before = *hot.values[0];
  // The hot instruction runs twice as often; the cold one a little more (a far smaller share).
  const std::string after = After({{hot.pc_offset, hot_before}, {cold.pc_offset, 1}});

  cli::testing::Finished json = RunGpuscope({"diff", before_, after, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const JsonValue diff = ParsedJsonOrFail(json.out);
  const JsonValue* kernel = ProbeKernel(diff);
  ASSERT_NE(kernel, nullptr) << json.out.substr(0, 600);
  const JsonValue* lines = kernel->Find("source_lines");
  ASSERT_NE(lines, nullptr);
  ASSERT_EQ(lines->kind, JsonValue::Kind::kObject);
  EXPECT_EQ(lines->Find("joined_by")->text, "line");
  EXPECT_EQ(lines->Find("compared")->number, static_cast<double>(page_.lines.size()));
  const std::vector<JsonValue>& changed = lines->Find("changed")->array;
  ASSERT_EQ(changed.size(), 2u) << json.out;
  EXPECT_EQ(changed[0].Find("location")->text, Location(hot));
  EXPECT_EQ(changed[1].Find("location")->text, Location(cold));
  const JsonValue& first = changed[0].Find("values")->array[0];
  EXPECT_EQ(first.Find("column")->text, "Instructions Executed");
  EXPECT_EQ(first.Find("delta")->number, static_cast<double>(hot_before));
  EXPECT_EQ(first.Find("after")->number - first.Find("before")->number,
            static_cast<double>(hot_before));
  EXPECT_EQ(changed[1].Find("values")->array[0].Find("delta")->number, 1.0);
  // The other columns did not change on these lines.
  for (const JsonValue& value : changed[0].Find("values")->array) {
    if (value.Find("column")->text != "Instructions Executed") {
      EXPECT_EQ(value.Find("delta")->number, 0.0) << value.Find("column")->text;
    }
  }
  EXPECT_TRUE(diff.Find("source_notes")->array.empty());
  // work() was profiled without source counters: no per-line comparison.
  for (const JsonValue& k : diff.Find("kernels")->array) {
    if (k.Find("name")->text == gpuscope::testing::kPlainKernelName) {
      EXPECT_EQ(k.Find("source_lines")->kind, JsonValue::Kind::kNull);
    }
  }

  cli::testing::Finished text = RunGpuscope({"diff", before_, after});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string heading =
      "Source lines (joined by file:line): 2 of " + std::to_string(page_.lines.size()) + " changed";
  const std::size_t at = text.out.find(heading);
  ASSERT_NE(at, std::string::npos) << text.out;
  const std::size_t hot_row = text.out.find("\n      " + Location(hot) + " ", at);
  const std::size_t cold_row = text.out.find("\n      " + Location(cold) + " ", at);
  ASSERT_NE(hot_row, std::string::npos) << text.out;
  ASSERT_NE(cold_row, std::string::npos) << text.out;
  EXPECT_LT(hot_row, cold_row);
  // The hot line's change: the instruction's executions again, against the line's total.
  std::uint64_t line_before = 0;
  for (const source::LineRow& line : page_.lines) {
    if (line.line == hot.line) line_before = line.values[0].value_or(0);
  }
  char relative[32];
  std::snprintf(relative, sizeof relative, " (+%.1f%%)",
                100.0 * static_cast<double>(hot_before) / static_cast<double>(line_before));
  std::string grouped = std::to_string(hot_before);
  for (int i = static_cast<int>(grouped.size()) - 3; i > 0; i -= 3) grouped.insert(i, ",");
  EXPECT_NE(text.out.find("+" + grouped + relative, hot_row), std::string::npos)
      << "+" + grouped + relative << "\n"
      << text.out;
}

TEST_F(SourceLineDiffTest, FailOnRegressionStillLooksAtTimeOnly) {
  // Twice the instructions on a line, the same traced times: a change, no regression.
  const std::string after = After({{Hottest().pc_offset, 1000}});
  cli::testing::Finished run = RunGpuscope({"diff", "--fail-on", "regression", before_, after});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("No regression beyond noise."), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Source lines (joined by file:line): 1 of"), std::string::npos);
}

TEST_F(SourceLineDiffTest, WithoutLineInformationInstructionsAreJoinedByOffset) {
  const source::InstructionRow& hot = Hottest();
  const std::string after = After({{hot.pc_offset, 7}}, /*keep_lines=*/false);
  cli::testing::Finished json = RunGpuscope({"diff", before_, after, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const JsonValue diff = ParsedJsonOrFail(json.out);
  const JsonValue* kernel = ProbeKernel(diff);
  ASSERT_NE(kernel, nullptr);
  const JsonValue& lines = *kernel->Find("source_lines");
  EXPECT_EQ(lines.Find("joined_by")->text, "offset");
  EXPECT_EQ(lines.Find("compared")->number, static_cast<double>(page_.instructions.size()));
  ASSERT_EQ(lines.Find("changed")->array.size(), 1u);
  const JsonValue& changed = lines.Find("changed")->array[0];
  EXPECT_EQ(changed.Find("location")->text, source::HexOffset(hot.pc_offset));
  EXPECT_EQ(changed.Find("function")->text, gpuscope::testing::kProbeKernel);
  EXPECT_EQ(changed.Find("values")->array[0].Find("delta")->number, 7.0);

  cli::testing::Finished text = RunGpuscope({"diff", before_, after});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Source lines (joined by SASS offset: no line information): 1 of"),
            std::string::npos)
      << text.out;
}

TEST_F(SourceLineDiffTest, IdenticalReportsHaveNoChangedLine) {
  const std::string after = After({});
  cli::testing::Finished run = RunGpuscope({"diff", before_, after});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("Source lines (joined by file:line): no change in " +
                         std::to_string(page_.lines.size()) + " lines"),
            std::string::npos)
      << run.out;
}

}  // namespace
}  // namespace gpuscope::analysis::diff

// The kernel page's Source tab as the viewer's HTTP API serves it (/api/kernel's "source"), on
// a report built from the source probe's recorded values (tests/support/probe_source_report):
// the same lines, instructions and totals as the source page of analysis/source that `gpuscope
// source` prints, the link between lines and instructions both ways, and the one-line reason
// of kernels without source data. `gpuscope report` embeds the same object.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "../export/test_reports.h"
#include "../support/json_checker.h"
#include "../support/json_expect.h"
#include "../support/probe_source_report.h"
#include "analysis/source/source_summary.h"
#include "store/report_reader.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"

namespace gpuscope::viewer {
namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParsedJsonOrFail;
using analysis::testing::ParseJson;
using exporter::testing::ScratchDir;

// Nsight Compute's sum over k_fp64's instructions (tests/data/sass/README.md).
constexpr double kProbeInstructions = 28'606'464;
constexpr const char* kLine22Code = "s += a[(threadIdx.x + i) % n] * 1.5;";
constexpr const char* kNoCounters =
    "no source counters were collected for this launch; profile with --set full or --section "
    "SourceCounters";

// GET /api/kernel?report=0&name=`name`, as the browser asks.
JsonValue ApiKernel(ViewerData& data, const std::string& name) {
  HttpRequest request;
  request.method = "GET";
  request.path = "/api/kernel";
  request.query = {{"report", "0"}, {"name", name}};
  HttpResponse response = HandleViewerRequest(data, {}, request);
  EXPECT_EQ(response.status, 200) << response.body;
  return ParsedJsonOrFail(response.body);
}

double Number(const JsonValue* value) {
  return value != nullptr && value->kind == JsonValue::Kind::kNumber ? value->number : -1;
}

class KernelSourcePageTest : public ::testing::Test {
 protected:
  std::unique_ptr<ViewerData> OpenProbe(bool store_source_text = true) {
    path_ = dir_.File(store_source_text ? "probe.sqlite" : "no_text.sqlite");
    Status written =
        testing::WriteProbeSourceReport({.path = path_, .store_source_text = store_source_text});
    EXPECT_TRUE(written.ok()) << written.message();
    auto data = ViewerData::Open({path_});
    EXPECT_TRUE(data.ok()) << data.status().message();
    return data.ok() ? std::move(data.value()) : nullptr;
  }
  // The source page of the report's k_fp64, as analysis/source computes it.
  analysis::source::KernelSource AnalysisPage() {
    auto reader = store::ReportReader::Open(path_);
    EXPECT_TRUE(reader.ok());
    auto sources = analysis::source::LoadKernelSources(**reader);
    EXPECT_TRUE(sources.ok());
    for (auto& [id, source] : *sources) {
      if (!source.instructions.empty()) return source;
    }
    ADD_FAILURE() << "no kernel with source rows";
    return {};
  }
  ScratchDir dir_;
  std::string path_;
};

TEST_F(KernelSourcePageTest, LinesInstructionsAndTotalsAreTheSourcePages) {
  auto data = OpenProbe();
  ASSERT_NE(data, nullptr);
  const JsonValue page = ApiKernel(*data, testing::kProbeKernelName);
  const JsonValue* source = page.Find("source");
  ASSERT_NE(source, nullptr);
  ASSERT_TRUE(source->Find("available")->boolean) << source->Find("message")->text;
  EXPECT_TRUE(source->Find("has_lines")->boolean);
  EXPECT_TRUE(source->Find("has_sass")->boolean);
  EXPECT_EQ(source->Find("lines_note")->text, "");

  const analysis::source::KernelSource expected = AnalysisPage();
  const JsonValue& columns = *source->Find("columns");
  const JsonValue& lines = *source->Find("lines");
  const JsonValue& instructions = *source->Find("instructions");
  ASSERT_EQ(instructions.array.size(), expected.instructions.size());
  ASSERT_EQ(lines.array.size(), expected.lines.size());
  // The heat columns: every column with values except the per-reason stall columns.
  ASSERT_FALSE(columns.array.empty());
  EXPECT_EQ(columns.array[0].Find("name")->text, "Instructions Executed");
  EXPECT_EQ(Number(columns.array[0].Find("total")), kProbeInstructions);
  for (const JsonValue& column : columns.array) {
    EXPECT_EQ(column.Find("name")->text.rfind("stall_", 0), std::string::npos);
  }
  // Per column, the lines add up to the kernel's total, and so do the instructions.
  for (std::size_t c = 0; c < columns.array.size(); ++c) {
    double by_line = 0, by_instruction = 0;
    for (const JsonValue& line : lines.array)
      by_line += std::max(0.0, Number(&line.Find("values")->array[c]));
    for (const JsonValue& i : instructions.array) {
      by_instruction += std::max(0.0, Number(&i.Find("values")->array[c]));
    }
    EXPECT_EQ(by_line, Number(columns.array[c].Find("total")))
        << columns.array[c].Find("name")->text;
    EXPECT_EQ(by_instruction, by_line);
  }
  // Line -> its instructions -> back to the line, for every line.
  for (std::size_t l = 0; l < lines.array.size(); ++l) {
    const JsonValue& members = *lines.array[l].Find("instructions");
    EXPECT_EQ(members.array.size(), expected.lines[l].instructions.size());
    for (const JsonValue& member : members.array) {
      const JsonValue& instruction = instructions.array.at(static_cast<std::size_t>(member.number));
      EXPECT_EQ(Number(instruction.Find("line")), static_cast<double>(l));
    }
  }
  // The hottest line is the one the rules name (TopLines): line 22, the DFMA loop.
  const auto top = analysis::source::TopLines(expected, 0, 1);
  ASSERT_EQ(top.size(), 1u);
  const JsonValue* hottest = nullptr;
  for (const JsonValue& line : lines.array) {
    if (!hottest ||
        Number(&line.Find("values")->array[0]) > Number(&hottest->Find("values")->array[0])) {
      hottest = &line;
    }
  }
  ASSERT_NE(hottest, nullptr);
  EXPECT_EQ(Number(hottest->Find("line")), *top[0].line);
  EXPECT_EQ(Number(hottest->Find("line")), 22);
  EXPECT_EQ(hottest->Find("file")->text, "source_probe.cu");
  EXPECT_EQ(hottest->Find("path")->text, *top[0].file);
  EXPECT_NE(hottest->Find("text")->text.find(kLine22Code), std::string::npos)
      << hottest->Find("text")->text;
  EXPECT_EQ(Number(&hottest->Find("values")->array[0]), static_cast<double>(top[0].value));
  // Its stall reasons, most samples first, are the kernel's per-reason columns.
  const JsonValue& stalls = *hottest->Find("stalls");
  ASSERT_FALSE(stalls.array.empty());
  for (std::size_t i = 1; i < stalls.array.size(); ++i) {
    EXPECT_GE(stalls.array[i - 1].array[1].number, stalls.array[i].array[1].number);
  }
  EXPECT_EQ(stalls.array[0].array[0].text.rfind("stall_", 0), 0u);
  // The kernel's stall reasons: most first, and together at most all samples.
  const JsonValue& reasons = *source->Find("stall_reasons");
  ASSERT_FALSE(reasons.array.empty());
  double samples = 0;
  for (std::size_t i = 0; i < reasons.array.size(); ++i) {
    samples += Number(reasons.array[i].Find("samples"));
    if (i > 0) {
      EXPECT_GE(Number(reasons.array[i - 1].Find("samples")),
                Number(reasons.array[i].Find("samples")));
    }
  }
  const auto all = analysis::source::FindSourceColumn("Warp Stall Sampling (All Samples)");
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(samples, static_cast<double>(*analysis::source::KernelTotals(expected)[*all]));
}

TEST_F(KernelSourcePageTest, KernelsWithoutSourceDataSayWhyInOneLine) {
  auto data = OpenProbe();
  ASSERT_NE(data, nullptr);
  const JsonValue page = ApiKernel(*data, testing::kPlainKernelName);
  const JsonValue* source = page.Find("source");
  ASSERT_NE(source, nullptr);
  EXPECT_FALSE(source->Find("available")->boolean);
  EXPECT_EQ(source->Find("message")->text, kNoCounters);
  EXPECT_EQ(source->Find("lines"), nullptr);

  // A report of `gpuscope run`: nothing profiled, the same reason.
  auto traced =
      ViewerData::Open({std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_add.sqlite"});
  ASSERT_TRUE(traced.ok());
  const JsonValue add = ApiKernel(**traced, "add(int, int, int*)");
  ASSERT_NE(add.Find("source"), nullptr);
  EXPECT_FALSE(add.Find("source")->Find("available")->boolean);
  EXPECT_EQ(add.Find("source")->Find("message")->text, kNoCounters);
}

TEST_F(KernelSourcePageTest, LinesWhoseFileWasNotFoundKeepTheirPlaceWithoutText) {
  auto data = OpenProbe(/*store_source_text=*/false);
  ASSERT_NE(data, nullptr);
  const JsonValue page = ApiKernel(*data, testing::kProbeKernelName);
  const JsonValue& lines = *page.Find("source")->Find("lines");
  ASSERT_FALSE(lines.array.empty());
  for (const JsonValue& line : lines.array) {
    EXPECT_EQ(line.Find("text")->kind, JsonValue::Kind::kNull);
  }
  EXPECT_EQ(lines.array[0].Find("file")->text, "source_probe.cu");
}

TEST_F(KernelSourcePageTest, TheReportPageEmbedsTheSameSourceTab) {
  auto data = OpenProbe();
  ASSERT_NE(data, nullptr);
  StatusOr<std::string> one = data->KernelJson(0, testing::kProbeKernelName);
  StatusOr<std::string> all = data->AllKernelsJson(0);
  ASSERT_TRUE(one.ok() && all.ok());
  const JsonValue page = ParsedJsonOrFail(*one);
  const JsonValue embedded = ParsedJsonOrFail(*all);
  const JsonValue* kernel = embedded.Find(testing::kProbeKernelName);
  ASSERT_NE(kernel, nullptr);
  EXPECT_TRUE(kernel->Find("source")->Find("available")->boolean);
  EXPECT_NE(all->find(one->substr(one->find("\"source\":"))), std::string::npos);
  EXPECT_EQ(kernel->Find("source")->Find("lines")->array.size(),
            page.Find("source")->Find("lines")->array.size());
}

}  // namespace
}  // namespace gpuscope::viewer

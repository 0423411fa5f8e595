// `gpuscope view` and `gpuscope report` as a user runs them.
#include <gtest/gtest.h>
#include <stdio.h>

#include <filesystem>

#include "../export/test_reports.h"
#include "gpuscope_process.h"
#include "http_client.h"

namespace gpuscope::viewer {
namespace {

using cli::testing::GpuscopeBinary;
using cli::testing::RunGpuscope;
using exporter::testing::ReadWholeFile;
using exporter::testing::ScratchDir;

TEST(ViewBinaryTest, PrintsTheUrlServesTheApiAndStops) {
  ScratchDir dir;
  exporter::testing::WriteRichReport(dir.File("rich.sqlite"));
  std::string command =
      GpuscopeBinary() + " view --exit-after-seconds 3 " + dir.File("rich.sqlite") + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char line[512] = {};
  ASSERT_NE(::fgets(line, sizeof line, pipe), nullptr);
  std::string first(line);
  const std::string prefix = "gpuscope: viewer at http://127.0.0.1:";
  ASSERT_EQ(first.rfind(prefix, 0), 0u) << first;
  EXPECT_NE(first.find("/ (Ctrl-C to stop)"), std::string::npos) << first;
  auto port = static_cast<std::uint16_t>(std::stoi(first.substr(prefix.size())));
  testing::RawResponse reports = testing::Get(port, "/api/reports");
  EXPECT_EQ(reports.status, 200);
  EXPECT_NE(reports.body.find("\"pid\":4242"), std::string::npos);
  EXPECT_EQ(testing::Get(port, "/").status, 200);
  // Read to the end (the stop message) so that the pipe is not closed under the writer.
  std::string rest;
  while (::fgets(line, sizeof line, pipe) != nullptr) rest += line;
  EXPECT_NE(rest.find("viewer stopped"), std::string::npos) << rest;
  EXPECT_EQ(::pclose(pipe), 0);
}

TEST(ViewBinaryTest, UsageAndReportErrors) {
  ScratchDir dir;
  EXPECT_EQ(RunGpuscope({"view"}).exit_code, 2);
  EXPECT_EQ(RunGpuscope({"view", "--port", "70000", "x.sqlite"}).exit_code, 2);
  auto missing = RunGpuscope({"view", dir.File("missing.sqlite")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
  auto help = RunGpuscope({"view", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("127.0.0.1"), std::string::npos);
}

TEST(ReportBinaryTest, WritesOneHtmlFile) {
  ScratchDir dir;
  exporter::testing::WriteRichReport(dir.File("rich.sqlite"));
  auto done = RunGpuscope({"report", dir.File("rich.sqlite"), "-o", dir.File("out.html")});
  ASSERT_EQ(done.exit_code, 0) << done.err;
  std::string html = ReadWholeFile(dir.File("out.html"));
  EXPECT_NE(html.find("id=\"gpuscope-data\""), std::string::npos);
  EXPECT_EQ(html.find(exporter::testing::kHostileKernel), std::string::npos);
  auto cut = RunGpuscope({"report", dir.File("rich.sqlite"), "--max-events", "4"});
  ASSERT_EQ(cut.exit_code, 0) << cut.err;
  EXPECT_TRUE(std::filesystem::exists(dir.File("rich.html")));
  EXPECT_NE(cut.err.find("embedded"), std::string::npos) << cut.err;
  EXPECT_EQ(RunGpuscope({"report", "--max-events", "0", dir.File("rich.sqlite")}).exit_code, 2);
  EXPECT_EQ(RunGpuscope({"report", dir.File("nope.sqlite")}).exit_code, 1);
}

}  // namespace
}  // namespace gpuscope::viewer

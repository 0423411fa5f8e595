// The text block after `gpuscope run`'s summary and the CSV form of findings.
#include "render/trace_findings_format.h"

#include <gtest/gtest.h>

#include <sstream>

namespace gpuscope::analysis {
namespace {

using render::WriteTraceFindings;
using render::WriteTraceFindingsCsv;

constexpr model::Timestamp kOrigin = 1'700'000'000'000'000'000;

Finding SampleFinding() {
  Finding finding;
  finding.rule_id = "idle_gaps";
  finding.severity = Severity::kOpt;
  finding.title = "GPU idle between activities";
  finding.message = "The GPU ran nothing in 2 gaps, \"quoted\", 5.0000ms idle.";
  finding.est_gain_ns = 5'000'000;
  finding.occurrences = 2;
  finding.time_ns = 5'000'000;
  finding.cited.push_back({"kernels", 17, kOrigin + 2'500'000, 1'000'000, "starts after 4ms"});
  finding.cited.push_back({"memcpys", 18, kOrigin + 9'000, 2'000, ""});
  return finding;
}

TEST(FindingsFormat, TextBlockInNvprofsFraming) {
  std::ostringstream out;
  WriteTraceFindings({SampleFinding()}, 42, kOrigin, out);
  EXPECT_EQ(out.str(),
            "==42== Findings:\n"
            "    OPT   GPU idle between activities [idle_gaps]   Est. Gain: 5.0000ms\n"
            "          The GPU ran nothing in 2 gaps, \"quoted\", 5.0000ms idle.\n"
            "          Rows:\n"
            "            kernels correlation 17  start 2.5000ms  duration 1.0000ms  starts "
            "after 4ms\n"
            "            memcpys correlation 18  start 9.0000us  duration 2.0000us\n");
}

TEST(FindingsFormat, NothingForNoFindings) {
  std::ostringstream out;
  WriteTraceFindings({}, 42, kOrigin, out);
  EXPECT_EQ(out.str(), "");
}

TEST(FindingsFormat, LongMessagesWrapAtOneHundredColumns) {
  Finding finding = SampleFinding();
  finding.message = std::string(60, 'a') + " " + std::string(60, 'b');
  finding.cited.clear();
  std::ostringstream out;
  WriteTraceFindings({finding}, 1, kOrigin, out);
  EXPECT_NE(out.str().find("          " + std::string(60, 'a') + "\n          " +
                           std::string(60, 'b') + "\n"),
            std::string::npos)
      << out.str();
}

TEST(FindingsFormat, CsvRowPerCitedRow) {
  std::ostringstream out;
  WriteTraceFindingsCsv({SampleFinding()}, kOrigin, out);
  std::string text = out.str();
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "\"Rule\",\"Severity\",\"Title\",\"Est. Gain (ns)\",\"Occurrences\",\"Time (ns)\","
            "\"Message\",\"Table\",\"Correlation ID\",\"Start (ns)\",\"Duration (ns)\",\"Note\"");
  EXPECT_NE(text.find("\"idle_gaps\",\"OPT\",\"GPU idle between activities\",5000000,2,5000000,"
                      "\"The GPU ran nothing in 2 gaps, \"\"quoted\"\", 5.0000ms idle.\","
                      "\"kernels\",17,2500000,1000000,\"starts after 4ms\"\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(",\"memcpys\",18,9000,2000,\"\"\n"), std::string::npos) << text;
}

// Titles, messages and notes quote the program's names: control characters print as \xHH.
TEST(FindingsFormat, ControlCharactersInNamesPrintEscaped) {
  Finding finding = SampleFinding();
  finding.title = "k\x1b]0;pwn\x07\r\nx";
  finding.message = std::string("kernel ") + "k\x1b]0;pwn\x07\r\nx" + " is slow";
  finding.cited = {{"kernels", 17, kOrigin, 1'000, "k\x1b]0;pwn\x07\r\nx"}};
  std::ostringstream out;
  WriteTraceFindings({finding}, 42, kOrigin, out);
  const std::string text = out.str();
  EXPECT_EQ(text.find_first_of("\x1b\x07\r"), std::string::npos) << text;
  EXPECT_NE(text.find(std::string("OPT   ") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + " [idle_gaps]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(std::string("kernel ") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + " is slow\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(std::string("duration 1.0000us  ") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + "\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace gpuscope::analysis

#include "render/kernel_findings_format.h"

#include <gtest/gtest.h>

#include "render/word_wrap.h"

namespace gpuscope::analysis {
namespace {

using render::FormatFindings;
using render::WrapWords;

TEST(FindingsFormat, PrintsSpeedupLineThenWrappedMessage) {
  Finding f;
  f.rule_id = "x";
  f.section = "Occupancy";
  f.severity = Severity::kOpt;
  f.title = "Achieved Occupancy";
  f.speedup_pct = 42.123;
  f.message = std::string(60, 'a') + " " + std::string(60, 'b');
  Finding other = f;
  other.section = "SpeedOfLight";
  const std::string text = FormatFindings({f, other}, "Occupancy");
  EXPECT_EQ(text, "    OPT   Est. Speedup: 42.12% (Achieved Occupancy)\n          " +
                      std::string(60, 'a') + "\n          " + std::string(60, 'b') + "\n");
}

TEST(FindingsFormat, InformationalFindingPrintsItsTitle) {
  Finding f;
  f.section = "SpeedOfLight";
  f.severity = Severity::kInf;
  f.title = "High Throughput";
  f.message = "near the roof";
  EXPECT_EQ(FormatFindings({f}, "SpeedOfLight"),
            "    INF   High Throughput\n          near the roof\n");
  EXPECT_EQ(FormatFindings({f}, "Occupancy"), "");
}

TEST(FindingsFormat, WrapsAtTheWidthOnWords) {
  const auto lines = WrapWords("aa bb cc dd", 5);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "aa bb");
  EXPECT_EQ(lines[1], "cc dd");
  EXPECT_TRUE(WrapWords("", 5).empty());
}

TEST(FindingsFormat, SeverityNamesRoundTrip) {
  for (auto s : {Severity::kOpt, Severity::kInf, Severity::kWrn}) {
    EXPECT_EQ(ParseSeverity(SeverityName(s)), s);
  }
  EXPECT_FALSE(ParseSeverity("BAD").has_value());
}

TEST(FindingsFormat, ControlCharactersInTitleAndMessagePrintEscaped) {
  Finding f;
  f.section = "SpeedOfLight";
  f.severity = Severity::kInf;
  f.title = "k\x1b]0;pwn\x07\r\nx";
  f.message = std::string("kernel ") + "k\x1b]0;pwn\x07\r\nx";
  EXPECT_EQ(FormatFindings({f}, "SpeedOfLight"),
            std::string("    INF   ") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + "\n          kernel " +
                "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + "\n");
  f.speedup_pct = 1.0;
  EXPECT_EQ(FormatFindings({f}, "SpeedOfLight"),
            std::string("    INF   Est. Speedup: 1.00% (") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" +
                ")\n          kernel " + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + "\n");
}

}  // namespace
}  // namespace gpuscope::analysis

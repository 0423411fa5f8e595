#include "contract/manifest_line.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuscope::contract {
namespace {

TEST(ManifestLine, FormatIsPidParentPidPathAndNewline) {
  EXPECT_EQ(FormatManifestLine({12, 7, "/tmp/r.sqlite"}), "12\t7\t/tmp/r.sqlite\n");
}

// What the injection writes, the launcher reads back unchanged.
TEST(ManifestLine, EveryEntryRoundTrips) {
  const std::vector<ManifestEntry> entries = {
      {1, 0, "/a.sqlite"},
      {713, 100, "/w/r_713.sqlite"},
      {4294967295u, 4294967295u, "/max/pid.sqlite"},
      {730, 713, "/w/with\ttab and space.sqlite"},  // the path goes last: tabs are kept
      {9, 1, "/w/100%/r\xc3\xa9sultat.sqlite"},
      {5, 1, "relative.sqlite"},
  };
  for (const ManifestEntry& entry : entries) {
    std::optional<ManifestEntry> parsed = ParseManifestLine(FormatManifestLine(entry));
    ASSERT_TRUE(parsed.has_value()) << entry.report_path;
    EXPECT_EQ(*parsed, entry);
  }
}

// A process killed in the middle of its write leaves a line without its newline.
TEST(ManifestLine, ALineCutShortIsRejected) {
  std::string line = FormatManifestLine({3, 0, "/cut_short"});
  ASSERT_TRUE(ParseManifestLine(line).has_value());
  line.pop_back();
  EXPECT_FALSE(ParseManifestLine(line).has_value());
  EXPECT_FALSE(ParseManifestLine("3\t0\t/cu").has_value());
}

TEST(ManifestLine, MalformedLinesAreRejected) {
  for (const char* line : {"\n", "garbage\n", "x\t0\t/bad_pid\n", "1\ty\t/bad_parent\n", "2\t0\t\n",
                           "1\t/no_parent\n", "\t0\t/no_pid\n", "-1\t0\t/negative\n",
                           "4294967296\t0\t/too_big\n", " 1\t0\t/space\n", "1 \t0\t/space\n"}) {
    EXPECT_FALSE(ParseManifestLine(line).has_value()) << line;
  }
}

}  // namespace
}  // namespace gpuscope::contract

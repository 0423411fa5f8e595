// "One long string takes everything down": a report whose kernel is named by 10 MB made every
// output that repeats a name per row gigabytes long. Free text read from a report is
// shortened past kMaxReportTextBytes once, in the reader (store/report_text.h), and every
// query of the store returns the reader's shortened text, never the file's whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "store/kernel_launch_groups.h"
#include "store/profile_store.h"
#include "store/report_reader.h"
#include "store/report_text.h"
#include "store/table_rows.h"
#include "store_test_util.h"
#include "test_reports.h"

namespace gpuscope::store {
namespace {

constexpr std::size_t kTenMegabytes = 10u << 20;
constexpr std::size_t kOneMegabyte = 1u << 20;

// SQL for a text of `bytes` bytes ("kabab...", an even count) without sending it whole.
std::string LongTextSql(std::size_t bytes, const char* first = "k") {
  return std::string("'") + first + "' || replace(hex(zeroblob(" + std::to_string(bytes / 2) +
         ")), '00', 'ab')";
}

TEST(ShortenedReportText, TextThatFitsIsReturnedWhole) {
  const std::string fits(kMaxReportTextBytes, 'x');
  EXPECT_EQ(ShortenedReportText(fits), fits);
  EXPECT_EQ(ShortenedReportText(""), "");
}

TEST(ShortenedReportText, LongTextKeepsItsStartItsLengthAndAHashOfTheWhole) {
  const std::string name = "kernel_" + std::string(kTenMegabytes, 'a');
  const std::string shortened = ShortenedReportText(name);
  EXPECT_LE(shortened.size(), kMaxReportTextBytes);
  EXPECT_GT(shortened.size(), kMaxReportTextBytes - 64);  // most of it is the name
  EXPECT_EQ(shortened.rfind("kernel_aaaa", 0), 0u);
  EXPECT_NE(shortened.find("...[" + std::to_string(name.size()) + " bytes, #"), std::string::npos)
      << shortened.substr(shortened.size() - 64);
  EXPECT_EQ(shortened.back(), ']');
  // Two long names that differ only past the cut stay two names (no table adds them up).
  EXPECT_NE(ShortenedReportText(name + "b"), ShortenedReportText(name + "c"));
  // The same text always shortens alike (outputs are stable from run to run).
  EXPECT_EQ(ShortenedReportText(name), shortened);
}

TEST(ShortenedReportText, CutsBetweenUtf8Characters) {
  std::string text;
  while (text.size() < 3 * kMaxReportTextBytes) text += "\xC3\xA9\xE2\x82\xAC";  // é €
  const std::string shortened = ShortenedReportText(text);
  const std::string kept = shortened.substr(0, shortened.find("...["));
  ASSERT_FALSE(kept.empty());
  // The kept start is whole characters: it ends right after é or €.
  EXPECT_TRUE(kept.ends_with("\xC3\xA9") || kept.ends_with("\xE2\x82\xAC"))
      << static_cast<int>(static_cast<unsigned char>(kept.back()));
}

class LongTextReport : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("long.sqlite");
    exporter::testing::WriteRichReport(path_);
    // The kernel _Z3addiiPi and the process's command line of 1 MB each (any length past the
    // cap is the same to the reader; the binary tests use 10 MB).
    test::ExecSql(path_, "UPDATE strings SET value = " + LongTextSql(kOneMegabyte) +
                             ", demangled = NULL WHERE value = '_Z3addiiPi';"
                             "UPDATE process SET command_line = " +
                             LongTextSql(kOneMegabyte, "./app ") + ";");
    auto reader = ReportReader::Open(path_);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    reader_ = std::move(reader.value());
  }

  test::TempDir dir_;
  std::string path_;
  std::unique_ptr<ReportReader> reader_;
};

TEST_F(LongTextReport, TheReaderShortensNamesAndTheCommandLineAndCountsThem) {
  EXPECT_LE(reader_->process().command_line.size(), kMaxReportTextBytes);
  EXPECT_EQ(reader_->process().command_line.rfind("./app abab", 0), 0u);
  std::set<std::string> names;
  Status read = reader_->ForEachKernel([&](const KernelRow& row) {
    EXPECT_LE(row.record.mangled_name.size(), kMaxReportTextBytes);
    EXPECT_LE(row.demangled_name.size(), kMaxReportTextBytes);
    names.emplace(row.demangled_name);
    return true;
  });
  ASSERT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(names.size(), 2u);  // the long one and the hostile one, each still itself
  // Two distinct texts: the name and the command line, each counted once however often read.
  EXPECT_EQ(reader_->shortened_texts(), 2u);
  (void)reader_->ForEachKernel([](const KernelRow&) { return true; });
  EXPECT_EQ(reader_->shortened_texts(), 2u);
}

TEST_F(LongTextReport, TheStoresQueriesReturnTheShortenedNames) {
  // Kernel pages (the viewer, `gpuscope report`): grouped without copying the name per launch.
  std::size_t groups = 0;
  Status grouped =
      ForEachKernelLaunchGroup(*reader_, std::nullopt, [&](const KernelLaunchGroup& g) {
        ++groups;
        EXPECT_LE(g.name.size(), kMaxReportTextBytes);
        EXPECT_LE(g.mangled_name.size(), kMaxReportTextBytes);
      });
  ASSERT_TRUE(grouped.ok()) << grouped.message();
  EXPECT_EQ(groups, 2u);
  // The CSV tables: every name column the reader's, every other text shortened too.
  for (const char* table : {"kernels", "api_calls", "nvtx"}) {
    std::size_t rows = 0;
    Status exported = ForEachExportedRow(*reader_, table, nullptr, [&](const TableRow& row) {
      ++rows;
      for (const FieldValue& value : row.values) {
        EXPECT_LE(value.text.size(), kMaxReportTextBytes) << table;
      }
      return true;
    });
    ASSERT_TRUE(exported.ok()) << exported.message();
    EXPECT_GT(rows, 0u) << table;
  }
  EXPECT_EQ(reader_->shortened_texts(), 2u);
}

TEST_F(LongTextReport, ExportedNameColumnsAreTheViewsNames) {
  // The name columns come from the reader, not the view: same values for normal names.
  std::vector<std::string> kernel_names;
  std::vector<std::string> columns;
  Status exported = ForEachExportedRow(
      *reader_, "kernels",
      [&](std::span<const std::string> names) { columns.assign(names.begin(), names.end()); },
      [&](const TableRow& row) {
        kernel_names.emplace_back(row.values[1].text);
        return true;
      });
  ASSERT_TRUE(exported.ok()) << exported.message();
  ASSERT_GE(columns.size(), 3u);
  EXPECT_EQ(columns[1], "name");
  EXPECT_EQ(columns[2], "mangled_name");
  EXPECT_NE(std::find(kernel_names.begin(), kernel_names.end(), exporter::testing::kHostileKernel),
            kernel_names.end());
}

}  // namespace
}  // namespace gpuscope::store

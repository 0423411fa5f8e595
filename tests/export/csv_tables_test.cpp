// CSV export: one RFC 4180 file per table, read back with a strict parser.
#include "export/csv_tables.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "store/report_reader.h"
#include "test_reports.h"

namespace gpuscope::exporter {
namespace {

using testing::ReadWholeFile;
using testing::ScratchDir;

// RFC 4180: CRLF records, fields quoted when they contain a comma, quote or line break,
// inner quotes doubled. Fails the test on anything else.
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  std::size_t i = 0;
  bool at_field_start = true;
  while (i < text.size()) {
    char c = text[i];
    if (at_field_start && c == '"') {
      ++i;
      for (;;) {
        EXPECT_LT(i, text.size()) << "unterminated quoted field";
        if (i >= text.size()) return rows;
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += text[i++];
      }
      at_field_start = false;
      continue;
    }
    if (c == ',') {
      row.push_back(field);
      field.clear();
      at_field_start = true;
      ++i;
    } else if (c == '\r') {
      EXPECT_EQ(text[i + 1], '\n') << "bare CR";
      row.push_back(field);
      rows.push_back(row);
      row.clear();
      field.clear();
      at_field_start = true;
      i += 2;
    } else {
      EXPECT_NE(c, '"') << "quote inside an unquoted field";
      EXPECT_NE(c, '\n') << "bare LF";
      field += c;
      at_field_start = false;
      ++i;
    }
  }
  EXPECT_TRUE(row.empty() && field.empty()) << "last record without CRLF";
  return rows;
}

std::size_t Column(const std::vector<std::string>& header, const std::string& name) {
  auto found = std::find(header.begin(), header.end(), name);
  EXPECT_NE(found, header.end()) << name;
  return static_cast<std::size_t>(found - header.begin());
}

class CsvTablesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::WriteRichReport(dir_.File("rich.sqlite"));
    auto reader = store::ReportReader::Open(dir_.File("rich.sqlite"));
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    reader_ = std::move(reader.value());
    Status written = WriteCsvTables(*reader_, dir_.File("csv"));
    ASSERT_TRUE(written.ok()) << written.message();
  }
  std::vector<std::vector<std::string>> Table(const std::string& name) {
    return ParseCsv(ReadWholeFile(dir_.File("csv/" + name + ".csv")));
  }
  ScratchDir dir_;
  std::unique_ptr<store::ReportReader> reader_;
};

TEST_F(CsvTablesTest, WritesEveryTable) {
  for (const std::string& name : CsvTableNames()) {
    EXPECT_TRUE(std::filesystem::exists(dir_.File("csv/" + name + ".csv"))) << name;
  }
  EXPECT_EQ(CsvTableNames().size(), 11u);
}

TEST_F(CsvTablesTest, KernelsHaveResolvedNamesAndAbsoluteTimes) {
  auto rows = Table("kernels");
  ASSERT_EQ(rows.size(), 4u);  // header, the untimed kernel (NULL start sorts first), two more
  const auto& header = rows[0];
  std::size_t name = Column(header, "name"), start = Column(header, "start"),
              duration = Column(header, "duration"), mangled = Column(header, "mangled_name");
  EXPECT_EQ(rows[1][start], "");  // no timestamp: empty, not 0
  EXPECT_EQ(rows[2][name], "add(int, int, int*)");
  EXPECT_EQ(rows[2][mangled], "_Z3addiiPi");
  EXPECT_EQ(rows[2][start], std::to_string(testing::kRichStart + 4000));
  EXPECT_EQ(rows[2][duration], "3424");
  EXPECT_EQ(rows[3][name], testing::kHostileKernel);
  for (const auto& row : rows) EXPECT_EQ(row.size(), header.size());
}

// Byte for byte, except the invalid UTF-8 byte, which CSV writes as U+FFFD (issue 14: CSV
// files must be valid UTF-8).
TEST_F(CsvTablesTest, QuotedFieldsRoundTripByteForByte) {
  auto rows = Table("nvtx");
  ASSERT_EQ(rows.size(), 6u);
  std::size_t name = Column(rows[0], "name");
  std::string expected = testing::kHostileRange;
  expected.replace(expected.find('\xff'), 1, "\xEF\xBF\xBD");
  bool found = false;
  for (const auto& row : rows) found = found || row[name] == expected;
  EXPECT_TRUE(found) << "the range name with quotes, commas and bytes did not round-trip";
}

TEST_F(CsvTablesTest, CopiesMemoryAndDevicesSpellOutTheirKinds) {
  auto copies = Table("memcpys");
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies[1][Column(copies[0], "name")], "[CUDA memcpy DtoH]");
  EXPECT_EQ(copies[1][Column(copies[0], "src_kind")], "Device");
  EXPECT_EQ(copies[1][Column(copies[0], "dst_kind")], "Pageable");
  auto memory = Table("memory");
  ASSERT_EQ(memory.size(), 3u);
  EXPECT_EQ(memory[1][Column(memory[0], "op")], "alloc");
  EXPECT_EQ(memory[2][Column(memory[0], "op")], "free");
  auto devices = Table("devices");
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[1][Column(devices[0], "name")], "NVIDIA H200");
  auto api = Table("api_calls");
  EXPECT_EQ(api.size(), 8u);  // header and seven calls
}

TEST_F(CsvTablesTest, EmptyTablesStillHaveTheirHeader) {
  auto syncs = Table("syncs");
  ASSERT_EQ(syncs.size(), 1u);
  EXPECT_EQ(syncs[0][0], "id");
  EXPECT_GT(syncs[0].size(), 5u);
}

TEST_F(CsvTablesTest, UnwritableDirectoryIsAnError) {
  std::string file = dir_.File("not_a_dir");
  std::ofstream(file) << "x";
  Status written = WriteCsvTables(*reader_, file + "/sub");
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.message().find("cannot create"), std::string::npos) << written.message();
  EXPECT_EQ(written.message().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::exporter

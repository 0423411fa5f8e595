#include "store_test_util.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace gpuscope::store::test {

bool FileExists(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
}

std::uint64_t FileSize(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return 0;
  return static_cast<std::uint64_t>(info.st_size);
}

std::vector<char> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteFileBytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::uint32_t FileChangeCounter(const std::string& path) {
  std::vector<char> bytes = ReadFileBytes(path);
  if (bytes.size() < 28) return 0;
  std::uint32_t counter = 0;
  for (std::size_t i = 24; i < 28; ++i) {
    counter = (counter << 8) | static_cast<std::uint8_t>(bytes[i]);
  }
  return counter;
}

namespace {

sqlite3* OpenRaw(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    ADD_FAILURE() << "cannot open " << path << ": " << sqlite3_errmsg(db);
  }
  return db;
}

}  // namespace

std::string QueryText(const std::string& path, const std::string& sql) {
  sqlite3* db = OpenRaw(path);
  sqlite3_stmt* stmt = nullptr;
  std::string result;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db);
  } else if (int rc = sqlite3_step(stmt); rc == SQLITE_ROW) {
    const unsigned char* text = sqlite3_column_text(stmt, 0);
    if (text != nullptr) result = reinterpret_cast<const char*>(text);
  } else if (rc != SQLITE_DONE) {
    ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return result;
}

std::int64_t QueryInt(const std::string& path, const std::string& sql) {
  return std::strtoll(QueryText(path, sql).c_str(), nullptr, 10);
}

void ExecSql(const std::string& path, const std::string& sql) {
  sqlite3* db = OpenRaw(path);
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    ADD_FAILURE() << sql << ": " << (error != nullptr ? error : "?");
  }
  sqlite3_free(error);
  sqlite3_close(db);
}

std::unique_ptr<ReportReader> OpenReport(const std::string& path) {
  StatusOr<std::unique_ptr<ReportReader>> opened = ReportReader::Open(path);
  EXPECT_TRUE(opened.ok()) << opened.status().message();
  return opened.ok() ? std::move(*opened) : nullptr;
}

}  // namespace gpuscope::store::test

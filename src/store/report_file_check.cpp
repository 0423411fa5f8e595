#include "store/report_file_check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "store/schema.h"

namespace gpuscope::store {

namespace {

// The SQLite database header (https://www.sqlite.org/fileformat2.html#the_database_header).
constexpr std::size_t kHeaderSize = 100;
constexpr char kMagic[] = "SQLite format 3";  // 16 bytes with its NUL
constexpr std::size_t kPageSizeOffset = 16;
constexpr std::size_t kChangeCounterOffset = 24;
constexpr std::size_t kPageCountOffset = 28;
constexpr std::size_t kApplicationIdOffset = 68;
constexpr std::size_t kVersionValidForOffset = 92;

std::uint32_t BigEndian(const unsigned char* bytes, std::size_t size) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < size; ++i) value = (value << 8) | bytes[i];
  return value;
}

// Reads up to kHeaderSize bytes of `path` into `header`; the count read, or -1 with errno set.
ssize_t ReadHeader(const std::string& path, unsigned char (&header)[kHeaderSize]) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t got = read(fd, header, kHeaderSize);
  int read_errno = errno;
  close(fd);
  errno = read_errno;
  return got;
}

bool HasSqliteMagic(const unsigned char* header, ssize_t got) {
  return got >= static_cast<ssize_t>(sizeof(kMagic)) &&
         std::memcmp(header, kMagic, sizeof(kMagic)) == 0;
}

}  // namespace

Status CheckReportFile(const std::string& path, const std::string& action) {
  std::string prefix = action + " " + path + ": ";
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) return Status::Error(prefix + "no such file");
    return Status::Error(prefix + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) return Status::Error(prefix + "it is a directory");
  if (!S_ISREG(info.st_mode)) return Status::Error(prefix + "not a regular file");
  if (info.st_size == 0) return Status::Error(prefix + "the file is empty, not a gpuscope report");

  unsigned char header[kHeaderSize] = {};
  ssize_t got = ReadHeader(path, header);
  if (got < 0) return Status::Error(prefix + std::strerror(errno));
  if (!HasSqliteMagic(header, got)) {
    return Status::Error(prefix + "not a gpuscope report (not an SQLite database)");
  }
  if (static_cast<std::size_t>(got) < kHeaderSize) {
    return Status::Error(prefix + "truncated: the file has only " + std::to_string(got) + " bytes");
  }

  std::uint32_t page_size = BigEndian(header + kPageSizeOffset, 2);
  if (page_size == 1) page_size = 65536;  // the format's encoding of 64 KiB
  if (page_size < 512 || page_size > 65536 || (page_size & (page_size - 1)) != 0) {
    return Status::Error(prefix + "corrupt (invalid page size " + std::to_string(page_size) + ")");
  }
  // The page count in the header is only valid when its "version-valid-for" matches the
  // change counter (writers older than SQLite 3.7.0 did not maintain it).
  if (BigEndian(header + kChangeCounterOffset, 4) ==
      BigEndian(header + kVersionValidForOffset, 4)) {
    std::uint64_t expected =
        static_cast<std::uint64_t>(page_size) * BigEndian(header + kPageCountOffset, 4);
    auto actual = static_cast<std::uint64_t>(info.st_size);
    // A fold of the log cut short (a crash, a full disk) writes the header first; the log
    // still holds every committed page, and SQLite reads through it.
    struct stat wal {};
    const bool has_log = stat((path + "-wal").c_str(), &wal) == 0 && wal.st_size > 0;
    if (actual < expected && !has_log) {
      return Status::Error(prefix + "truncated: the file has " + std::to_string(actual) +
                           " bytes, its header says " + std::to_string(expected));
    }
  }
  return Status();
}

bool IsGpuscopeReport(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return false;
  unsigned char header[kHeaderSize] = {};
  ssize_t got = ReadHeader(path, header);
  if (!HasSqliteMagic(header, got)) return false;
  if (got == static_cast<ssize_t>(kHeaderSize) &&
      BigEndian(header + kApplicationIdOffset, 4) == static_cast<std::uint32_t>(kApplicationId)) {
    return true;
  }
  return access((path + "-wal").c_str(), F_OK) == 0;
}

}  // namespace gpuscope::store

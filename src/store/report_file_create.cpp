#include "store/report_file_create.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "util/symbolic_link_refusal.h"

namespace gpuscope::store {
namespace {

constexpr const char* kWhat = "report";

Status Failed(const std::string& what, const std::string& path, int error) {
  return Status::Error(what + " " + path + ": " + std::strerror(error));
}

Status RemoveCompanionFiles(const std::string& path) {
  for (const char* suffix : {"-wal", "-shm", "-journal"}) {
    std::string name = path + suffix;
    if (std::remove(name.c_str()) != 0 && errno != ENOENT)
      return Failed("cannot remove", name, errno);
  }
  return {};
}

// Owns a file descriptor for the few steps below.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Status PrepareReportFile(const std::string& path, bool overwrite, ReportPermissions permissions) {
  struct stat info {};
  if (lstat(path.c_str(), &info) == 0) {
    if (S_ISLNK(info.st_mode)) return SymbolicLinkRefusal(path, kWhat);
    if (S_ISDIR(info.st_mode)) return Status::Error("report " + path + " is a directory");
    if (!S_ISREG(info.st_mode)) return Status::Error("report " + path + " is not a regular file");
    if (!overwrite) return Status::Error("report " + path + " already exists");
  }
  GPUSCOPE_RETURN_IF_ERROR(RemoveCompanionFiles(path));

  // O_NOFOLLOW: a link that appeared since the lstat is refused, not followed. O_NONBLOCK: a
  // FIFO at the path fails (or opens) at once instead of waiting for a reader; it is refused
  // below. No O_TRUNC: an existing file is made private before its old contents go.
  Descriptor file(open(path.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
                       ReportCreationMode(permissions)));
  if (file.get() < 0) {
    if (errno == ELOOP) return SymbolicLinkRefusal(path, kWhat);
    return Failed("cannot create report", path, errno);
  }
  if (fstat(file.get(), &info) != 0) return Failed("cannot create report", path, errno);
  if (!S_ISREG(info.st_mode)) return Status::Error("report " + path + " is not a regular file");
  if (permissions == ReportPermissions::kPrivate && (info.st_mode & 07777) != 0600 &&
      fchmod(file.get(), 0600) != 0) {
    return Failed("cannot make report readable by its owner only", path, errno);
  }
  if (info.st_size != 0 && ftruncate(file.get(), 0) != 0) {
    return Failed("cannot overwrite report", path, errno);
  }
  return {};
}

}  // namespace gpuscope::store

#include "store/space_reserve.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <limits>

namespace gpuscope::store {

bool SpaceReserve::Open(const std::string& directory) {
  Release();
  fd_ = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ >= 0) return true;
  // Filesystems without O_TMPFILE: a name that exists only for the two calls below.
  std::string name = directory + "/.gpuscope-reserve-XXXXXX";
  fd_ = mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) return false;
  unlink(name.c_str());
  return true;
}

int SpaceReserve::HoldAtLeast(std::uint64_t bytes) {
  if (fd_ < 0 || bytes <= held_) return 0;
  // posix_fallocate allocates the blocks (tmpfs, ext4, xfs...), or writes zeros where the
  // filesystem cannot: either way the space is taken from the free space now.
  int error = posix_fallocate(fd_, 0, static_cast<off_t>(bytes));
  if (error != 0) return error;
  held_ = bytes;
  return 0;
}

std::uint64_t SpaceReserve::FreeBytes() const {
  struct statvfs fs {};
  if (fd_ < 0 || fstatvfs(fd_, &fs) != 0) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
}

void SpaceReserve::Release() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  held_ = 0;
}

}  // namespace gpuscope::store

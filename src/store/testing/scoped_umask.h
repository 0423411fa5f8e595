// Sets the process's umask for one test and puts the old one back. Tests of file
// permissions set it themselves (022, the common default) so that the mode they check
// comes from gpuscope, not from whatever umask the test runner happened to have.
// Header-only.
#pragma once

#include <sys/stat.h>

namespace gpuscope::store::testing {

class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : previous_(umask(mask)) {}
  ~ScopedUmask() { umask(previous_); }
  ScopedUmask(const ScopedUmask&) = delete;
  ScopedUmask& operator=(const ScopedUmask&) = delete;

 private:
  mode_t previous_;
};

// The permission bits of `path` itself (a symbolic link is not followed); -1 when absent.
inline int FileMode(const char* path) {
  struct stat info {};
  return lstat(path, &info) == 0 ? static_cast<int>(info.st_mode & 07777) : -1;
}

}  // namespace gpuscope::store::testing

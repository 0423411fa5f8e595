// Disk space held back for the moment the disk fills up.
//
// A report is one SQLite file plus its write-ahead log while the program runs; folding the
// log into the file (the last step of every report) needs the file to grow by up to the
// log's size. When the filesystem fills up, that growth would fail too and leave a report
// whose main file is unreadable on its own. So the writer keeps an unlinked file, as large
// as its log plus some slack, allocated in the report's directory: when a write fails, it
// gives that space back and uses it to store what was lost and to fold the log in.
//
// The file has no name (O_TMPFILE, or created and unlinked at once), so it never outlives
// the process, even after kill -9.
#pragma once

#include <cstdint>
#include <string>

namespace gpuscope::store {

class SpaceReserve {
 public:
  SpaceReserve() = default;
  ~SpaceReserve() { Release(); }
  SpaceReserve(const SpaceReserve&) = delete;
  SpaceReserve& operator=(const SpaceReserve&) = delete;

  // Opens the nameless file in `directory`; false (errno set) when the filesystem allows
  // neither O_TMPFILE nor a temporary name. Without a reserve the writer works as before.
  bool Open(const std::string& directory);
  bool open() const { return fd_ >= 0; }

  // Makes the reserve hold at least `bytes` of allocated space; it never shrinks. 0 on
  // success (or when there is no reserve), else the errno (ENOSPC: the disk has no room).
  int HoldAtLeast(std::uint64_t bytes);
  std::uint64_t held() const { return held_; }
  // The free space of the filesystem the reserve is on (fstatvfs; what an unprivileged
  // writer may use); UINT64_MAX when there is no reserve or the filesystem does not say.
  std::uint64_t FreeBytes() const;

  // Gives the space back to the filesystem.
  void Release();

 private:
  int fd_ = -1;
  std::uint64_t held_ = 0;
};

}  // namespace gpuscope::store

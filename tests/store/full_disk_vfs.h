// A disk that runs out of room, for machines where full_filesystem_test cannot mount a tmpfs:
// a SQLite VFS over the default one (registered as the default while the object lives) whose
// disk has `free_bytes` left. A write that grows a file beyond that fails with SQLITE_FULL,
// as SQLite reports ENOSPC; overwriting within a file's size always succeeds (the blocks are
// allocated), truncating gives space back.
//
// The writer's space reserve (store/space_reserve.h) lives outside SQLite, on the real disk;
// this disk models it: the first refused write frees `reserve_bytes`, as the writer's
// release of its reserve does right after that write fails.
#pragma once

#include <sqlite3.h>

#include <cstdint>

namespace gpuscope::store::test {

class FullDiskVfs {
 public:
  FullDiskVfs(std::uint64_t free_bytes, std::uint64_t reserve_bytes);
  ~FullDiskVfs();
  FullDiskVfs(const FullDiskVfs&) = delete;
  FullDiskVfs& operator=(const FullDiskVfs&) = delete;

  std::uint64_t refused_writes() const { return refused_; }
  sqlite3_vfs* real() const { return real_; }

  // For the file wrapper: may `bytes` more be allocated? Takes them when so.
  bool Allocate(std::uint64_t bytes);
  void GiveBack(std::uint64_t bytes) { free_ += bytes; }

 private:
  sqlite3_vfs vfs_{};
  sqlite3_vfs* real_ = nullptr;
  std::uint64_t free_;
  std::uint64_t reserve_;
  std::uint64_t refused_ = 0;
};

}  // namespace gpuscope::store::test

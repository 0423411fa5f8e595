// The same account as full_filesystem_test, on every machine: the disk runs out of room
// inside SQLite (full_disk_vfs.h), in the middle of a transaction.
#include <gtest/gtest.h>

#include "full_disk_vfs.h"
#include "store/testing/scratch_dir.h"
#include "writer_failure_check.h"

namespace gpuscope::store {
namespace {

TEST(FullDiskVfs, ADiskThatRunsOutOfRoomStopsTheWriterAndKeepsTheCommittedPart) {
  testing::ScratchDir dir;
  std::string account;
  std::uint64_t refused = 0;
  {
    // 1.5 MiB for the report: a few flushes of 1000 kernels; then the writer's 4 MiB reserve.
    test::FullDiskVfs disk(3 << 19, 4 << 20);
    account = test::WriteUntilFull(dir.File("r.sqlite"), 100'000, 0, nullptr);
    refused = disk.refused_writes();
  }
  EXPECT_GT(refused, 0u);
  test::ExpectCompleteAccount(account, 100'000);
  EXPECT_NE(account.find("database or disk is full"), std::string::npos) << account;
}

}  // namespace
}  // namespace gpuscope::store

// One scenario for the tests of a disk that fills up (full_filesystem_test on a real tmpfs,
// full_disk_vfs_test through a SQLite VFS that runs out of room): a launch-bound trace is
// written through the production ReportWriter until the disk refuses, the report is closed,
// finalised and read back, and every record must be either in the report or counted, by
// table, as not written.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace gpuscope::store::test {

// Writes `kernels` synthetic kernels (and their launch calls) to a new report at `path`,
// flushing every `kernels_per_flush` kernels; after `fill_after_flushes` flushes (0: never)
// calls `fill`. Returns what happened as "key=value" lines, for ExpectCompleteAccount.
std::string WriteUntilFull(const std::string& path, std::uint64_t kernels,
                           std::uint64_t fill_after_flushes, const std::function<void()>& fill,
                           std::uint64_t kernels_per_flush = 1000);

// The assertions on WriteUntilFull's account: the writer failed once and said so once, lost
// records were counted by table and stored, the report finalises and reads back, and report
// rows plus lost records are every record sent.
void ExpectCompleteAccount(const std::string& account, std::uint64_t kernels);

}  // namespace gpuscope::store::test

// One report named twice is one report: `stats a.sqlite ./a.sqlite` (or a symlink, or a hard
// link to it) must not count every kernel twice.
#pragma once

#include <string>
#include <vector>

namespace gpuscope::cli {

struct DistinctReports {
  std::vector<std::string> paths;  // the first spelling of each file, in the order given
  // One line per file named more than once: "b.sqlite is a.sqlite again (the same file);
  // reading it once".
  std::vector<std::string> notes;
};

// Files are the same when they have the same device and inode (symlinks followed). A path
// that cannot be examined is kept as given, for the reader to report why it cannot be read.
DistinctReports DropRepeatedReports(const std::vector<std::string>& paths);

}  // namespace gpuscope::cli

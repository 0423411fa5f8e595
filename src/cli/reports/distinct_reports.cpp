#include "cli/reports/distinct_reports.h"

#include <sys/stat.h>

#include <map>
#include <utility>

namespace gpuscope::cli {

DistinctReports DropRepeatedReports(const std::vector<std::string>& paths) {
  DistinctReports result;
  std::map<std::pair<dev_t, ino_t>, std::string> seen;  // file -> its first spelling
  std::map<std::string, bool> noted;
  for (const std::string& path : paths) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
      result.paths.push_back(path);
      continue;
    }
    auto [it, inserted] = seen.try_emplace({info.st_dev, info.st_ino}, path);
    if (inserted) {
      result.paths.push_back(path);
      continue;
    }
    // Said once per spelling, however often it was repeated.
    if (noted.try_emplace(path, true).second) {
      result.notes.push_back(path == it->second
                                 ? path + " is named more than once; reading it once"
                                 : path + " is " + it->second +
                                       " again (the same file); reading it once");
    }
  }
  return result;
}

}  // namespace gpuscope::cli

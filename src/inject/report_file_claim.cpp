#include "inject/report_file_claim.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/path_pattern.h"
#include "util/symbolic_link_refusal.h"

namespace gpuscope::inject {
namespace {

// More existing reports of one name than this is a runaway loop, not a user's directory.
constexpr int kMaxRenameAttempts = 10'000;

}  // namespace

StatusOr<ClaimedReportPath> ClaimReportPath(const std::string& requested, bool force_overwrite,
                                            ReportPermissions permissions) {
  GPUSCOPE_RETURN_IF_ERROR(RefuseSymbolicLink(requested, "report"));
  if (force_overwrite) return ClaimedReportPath{requested, false, false};
  for (int attempt = 0; attempt <= kMaxRenameAttempts; ++attempt) {
    std::string suffix = "-";
    suffix += std::to_string(attempt);
    std::string candidate = attempt == 0 ? requested : InsertBeforeExtension(requested, suffix);
    int fd = open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                  ReportCreationMode(permissions));
    if (fd >= 0) {
      close(fd);
      return ClaimedReportPath{candidate, attempt != 0, true};
    }
    if (errno != EEXIST) {
      return Status::Error("cannot create report " + candidate + ": " + std::strerror(errno));
    }
  }
  return Status::Error("cannot find a free report name next to " + requested + " (tried " +
                       std::to_string(kMaxRenameAttempts) + " suffixes)");
}

std::string AbsolutePath(const std::string& path) {
  if (!path.empty() && path.front() == '/') return path;
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) return path;
  std::string base = cwd;
  if (base.empty() || base.back() != '/') base.push_back('/');
  return base + path;
}

}  // namespace gpuscope::inject

#include "cli/output/output_path_checks.h"

#include <sys/stat.h>
#include <unistd.h>

#include "cli/output/output_claim.h"
#include "contract/report_path_rules.h"

namespace gpuscope::cli {
namespace {

// The directory of `path` exists and we may create files in it; `path` is not a directory.
Status CheckWritableLocation(const std::string& path, std::string_view what) {
  std::string dir = DirectoryOf(path);
  struct stat info {};
  if (stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    return Status::Error(std::string(what) + " directory '" + dir + "' does not exist");
  }
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    return Status::Error(std::string(what) + " directory '" + dir + "' is not writable");
  }
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    return Status::Error(std::string(what) + " path '" + path + "' is a directory");
  }
  return {};
}

}  // namespace

std::string DirectoryOf(std::string_view path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

StatusOr<std::string> PrepareReportPattern(std::string_view pattern, bool force_overwrite,
                                           const PatternContext& context,
                                           std::string_view working_directory,
                                           const std::vector<std::string>& inputs) {
  if (pattern.empty()) return Status::Error("the report path is empty");
  std::string absolute = contract::AbsoluteReportPattern(pattern, working_directory);
  // The root process's report: the one a pattern without %p names in every run.
  StatusOr<std::string> example = contract::ExpandReportPath(absolute, context, /*is_root=*/true);
  if (!example.ok()) return example.status();
  GPUSCOPE_RETURN_IF_ERROR(CheckWritableLocation(example.value(), "report"));
  OutputClaim claim(example.value(), "the report", inputs, force_overwrite);
  claim.output_is_report = true;
  claim.overwrite_hint = "use -f to overwrite it, or %p in -o for one name per run";
  // A name with the stand-in's pid is not the one the program's report gets.
  GPUSCOPE_RETURN_IF_ERROR(PatternHasPid(pattern) ? CheckNotAnInput(claim)
                                                  : CheckOutputClaim(claim));
  return absolute;
}

Status CheckLogFilePattern(std::string_view pattern, const PatternContext& context,
                           bool force_overwrite, const std::vector<std::string>& inputs) {
  if (pattern == "%1" || pattern == "%2") return {};
  StatusOr<std::string> example = ExpandPathPattern(pattern, context);
  if (!example.ok()) return example.status();
  GPUSCOPE_RETURN_IF_ERROR(CheckWritableLocation(example.value(), "log file"));
  OutputClaim claim(example.value(), "the log", inputs, force_overwrite);
  return PatternHasPid(pattern) ? CheckNotAnInput(claim) : CheckOutputClaim(claim);
}

}  // namespace gpuscope::cli

#include "cli/output/output_claim.h"

#include <sys/stat.h>

#include <filesystem>
#include <system_error>

#include "store/report_file_check.h"
#include "util/symbolic_link_refusal.h"

namespace gpuscope::cli {
namespace {

Status NotOverwriting(const OutputClaim& claim, std::string_view reason) {
  return Status::Error(claim.path + " " + std::string(reason) + "; not overwriting it with " +
                       claim.what);
}

// Absolute, symlinks of the existing part resolved, "." and ".." gone; for a path that
// does not exist (weakly_canonical leaves a relative one relative).
std::string CanonicalSpelling(const std::string& path) {
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(path, error);
  if (error) return path;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(absolute, error);
  return error ? absolute.lexically_normal().string() : canonical.string();
}

}  // namespace

bool SameFile(const std::string& a, const std::string& b) {
  struct stat a_info {
  }, b_info{};
  bool a_exists = stat(a.c_str(), &a_info) == 0;
  bool b_exists = stat(b.c_str(), &b_info) == 0;
  if (a_exists && b_exists) return a_info.st_dev == b_info.st_dev && a_info.st_ino == b_info.st_ino;
  if (a_exists != b_exists) return false;
  return CanonicalSpelling(a) == CanonicalSpelling(b);
}

Status CheckNotAnInput(const OutputClaim& claim) {
  for (const std::string& input : claim.inputs) {
    if (!SameFile(claim.path, input)) continue;
    if (input == claim.path) return NotOverwriting(claim, "is an input of this command");
    return NotOverwriting(claim, "is the same file as the input " + input);
  }
  return {};
}

Status CheckOutputClaim(const OutputClaim& claim) {
  GPUSCOPE_RETURN_IF_ERROR(CheckNotAnInput(claim));
  struct stat info {};
  const bool names_a_file = stat(claim.path.c_str(), &info) == 0;
  if (IsSymbolicLink(claim.path)) {
    if (claim.output_is_report) return SymbolicLinkRefusal(claim.path, "report");
    if (!names_a_file) {
      return SymbolicLinkRefusal(claim.path, claim.label, ", which names no existing file");
    }
  }
  if (!names_a_file) return {};  // nothing there to lose
  if (S_ISDIR(info.st_mode)) return Status::Error(claim.path + " is a directory");
  if (!S_ISREG(info.st_mode)) {
    // A terminal, pipe, FIFO or device: written into as a stream (output_file.h), which
    // replaces nothing, so -f is not needed. A report is a database, never a stream.
    if (claim.output_is_report) return Status::Error(claim.path + " is not a regular file");
    return {};
  }
  if (!claim.output_is_report && store::IsGpuscopeReport(claim.path)) {
    return NotOverwriting(claim, "is a gpuscope report");
  }
  if (!claim.force_overwrite) {
    return Status::Error(claim.path + " already exists (" + claim.overwrite_hint + ")");
  }
  return {};
}

Status CheckOutputDirectory(const OutputClaim& claim) {
  GPUSCOPE_RETURN_IF_ERROR(CheckNotAnInput(claim));
  struct stat info {};
  if (stat(claim.path.c_str(), &info) != 0 || S_ISDIR(info.st_mode)) return {};
  if (store::IsGpuscopeReport(claim.path)) return NotOverwriting(claim, "is a gpuscope report");
  return Status::Error(claim.path + " exists and is not a directory");
}

}  // namespace gpuscope::cli

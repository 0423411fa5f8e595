// Who may read a report. A report holds the program's command line, its kernel names and
// its NVTX strings, so by default only its owner may (0600), whatever the umask says; the
// user can ask for the umask's permissions instead (`--report-permissions umask`, passed to
// the injection as GPUSCOPE_REPORT_PERMISSIONS). Shared by the CLI, the injection library
// and the report writer, so the three agree on the names and the modes. Header-only.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string_view>

namespace gpuscope {

enum class ReportPermissions {
  kPrivate,  // 0600: read and write for the owner only (the default)
  kUmask,    // 0666 less the umask, as the shell creates files
};

inline constexpr ReportPermissions kDefaultReportPermissions = ReportPermissions::kPrivate;

// The mode a new report file is created with (the kernel applies the umask to it).
inline constexpr mode_t ReportCreationMode(ReportPermissions permissions) {
  return permissions == ReportPermissions::kPrivate ? 0600 : 0666;
}

// "private" or "umask", as the option and the variable spell them.
inline constexpr std::string_view ReportPermissionsName(ReportPermissions permissions) {
  return permissions == ReportPermissions::kPrivate ? "private" : "umask";
}

inline std::optional<ReportPermissions> ParseReportPermissions(std::string_view text) {
  if (text == "private") return ReportPermissions::kPrivate;
  if (text == "umask") return ReportPermissions::kUmask;
  return std::nullopt;
}

}  // namespace gpuscope

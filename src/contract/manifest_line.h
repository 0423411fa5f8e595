// The manifest line: how a traced process tells the launcher which report it writes. Each
// traced process appends one line, "pid<TAB>parent_pid<TAB>report path\n", to the file named
// by GPUSCOPE_MANIFEST once it has created its report (inject/manifest_append.h); after the
// program the launcher reads them all (cli/launch/manifest_file.h), which is how it finds the
// reports of children it never saw. This is the one writer and the one parser of a line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuscope::contract {

struct ManifestEntry {
  std::uint32_t pid = 0;
  std::uint32_t parent_pid = 0;
  std::string report_path;  // absolute: the launcher's working directory may differ
  bool operator==(const ManifestEntry&) const = default;
};

// The line, newline included. The path goes last so that it may contain tabs.
std::string FormatManifestLine(const ManifestEntry& entry);

// One line as FormatManifestLine wrote it, newline included. A line without its newline was
// cut short by a process that died while writing it; that, numbers that are not numbers and
// an empty path give nullopt.
std::optional<ManifestEntry> ParseManifestLine(std::string_view line);

}  // namespace gpuscope::contract

// The launcher side of the manifest: a file each traced process appends one line to when it
// creates its report (contract/manifest_line.h). It is how the launcher learns which reports
// a run produced, including those of child processes it never saw.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "contract/manifest_line.h"
#include "util/status.h"

namespace gpuscope::cli {

using contract::ManifestEntry;  // one parsed line: pid, parent pid, report path

struct Manifest {
  std::vector<ManifestEntry> entries;  // the root process first, then in the order written
  // Lines that did not parse (a process killed in the middle of its write, say), so the
  // caller can say that something was lost instead of skipping it silently.
  std::vector<std::string> malformed_lines;
};

// Parses manifest text. The entry of `root_pid` moves to the front; a report listed twice
// (a process that re-registered) appears once.
Manifest ParseManifest(std::string_view text, std::uint32_t root_pid);

// Creates an empty manifest file in $TMPDIR (or /tmp), readable only by the user.
StatusOr<std::string> CreateManifestFile();

// Reads, removes and parses a manifest file, once the program has ended. The file is
// removed as soon as it is open, before it is read: a traced process that registers later
// (a child outliving the program) then finds no file - the injection's append does not
// create one - and says so on its own stderr, instead of leaving a manifest in $TMPDIR or
// a line that nobody reads.
StatusOr<Manifest> TakeManifest(const std::string& path, std::uint32_t root_pid);

}  // namespace gpuscope::cli

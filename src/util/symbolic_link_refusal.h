// Files gpuscope creates or empties are never reached through a symbolic link at the path
// the user named: a link planted there (in a shared directory, or left by an earlier
// experiment) would make gpuscope truncate and overwrite whatever file it names. Reports
// refuse any link (the injection library's claim, the report writer); the CLI's other
// outputs refuse a link to a missing file (cli/output/output_claim.h says why links to existing
// files are followed there). One wording for all of them.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"

namespace gpuscope {

// Whether `path` itself (not what it names) is a symbolic link.
bool IsSymbolicLink(const std::string& path);

// "<what> <path> is a symbolic link to <target><detail>; not writing through it", one line
// (no "<what> " when `what` is empty).
Status SymbolicLinkRefusal(const std::string& path, std::string_view what,
                           std::string_view detail = {});

// Ok when `path` is not a symbolic link (or does not exist); else SymbolicLinkRefusal.
Status RefuseSymbolicLink(const std::string& path, std::string_view what);

}  // namespace gpuscope

// The report file this process writes: the path its pattern gave
// (contract::ExpandReportPath) taken so that no other process writes it too, and never
// overwriting an earlier report unless the user asked for it (-f).
#pragma once

#include <string>

#include "util/report_permissions.h"
#include "util/status.h"

namespace gpuscope::inject {

struct ClaimedReportPath {
  std::string path;            // the file this process owns now
  bool renamed = false;        // `path` differs from the requested one (it existed)
  bool created_empty = false;  // we created `path` as an empty placeholder
};

// Takes ownership of a report file name. A symbolic link at the requested path is refused,
// with or without `force_overwrite`: the report would be written onto whatever it names.
// With `force_overwrite` the requested path is used as it is (the writer empties it without
// following links, store/report_file_create.h). Otherwise the name is claimed atomically
// (O_CREAT|O_EXCL, an empty file created with `permissions`' mode), and when it exists "-1",
// "-2", ... go before the extension until a free name is found; two processes racing for
// one name therefore never both win it. (O_EXCL never follows a link: one planted at a
// numbered name counts as taken.)
StatusOr<ClaimedReportPath> ClaimReportPath(const std::string& requested, bool force_overwrite,
                                            ReportPermissions permissions);

// `path` made absolute against the current directory (the manifest is read by the
// launcher, whose working directory may differ from ours).
std::string AbsolutePath(const std::string& path);

}  // namespace gpuscope::inject

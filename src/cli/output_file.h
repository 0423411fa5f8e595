// The one way gpuscope's commands write a file (an HTML page, a trace, CSV tables, an SVG,
// a log): checked against output_claim.h's rules first, written to a temporary file next to
// the destination, and renamed over it only once it is complete. A command that fails or
// is interrupted (Ctrl-C, SIGTERM, SIGHUP, a file-size limit) leaves the old file whole and
// no temporary file behind; a reader never sees half an output.
#pragma once

#include <fstream>
#include <memory>
#include <ostream>
#include <string>

#include "cli/output_claim.h"
#include "util/status.h"

namespace gpuscope::cli {

class OutputFile {
 public:
  // Checks the claim and creates the temporary file. Errors are one line: the claim's
  // refusal, or "cannot write '<path>': <reason>" when the directory does not take files.
  static StatusOr<std::unique_ptr<OutputFile>> Create(OutputClaim claim);
  // Removes the temporary file unless Commit succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return stream_; }
  const std::string& path() const { return claim_.path; }

  // Closes the temporary file and renames it over the destination, after checking the
  // claim again (the destination may have changed while the output was written).
  Status Commit();

 private:
  OutputFile(OutputClaim claim, std::string destination, std::string temporary)
      : claim_(std::move(claim)),
        destination_(std::move(destination)),
        temporary_(std::move(temporary)) {}
  Status WriteError(int error_number) const;

  OutputClaim claim_;
  std::string destination_;  // the claim's path with symlinks resolved: the link is kept
  std::string temporary_;    // empty once committed
  std::ofstream stream_;
};

}  // namespace gpuscope::cli

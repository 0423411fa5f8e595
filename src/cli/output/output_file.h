// The one way gpuscope's commands write a file (an HTML page, a trace, CSV tables, an SVG,
// a log): checked against output_claim.h's rules first, written to a temporary file next to
// the destination, and renamed over it only once it is complete. A command that fails or
// is interrupted (Ctrl-C, SIGTERM, SIGHUP, a file-size limit) leaves the old file whole and
// no temporary file behind; a reader never sees half an output.
//
// A destination that is not a regular file (/dev/stdout, a terminal, a pipe, a FIFO, a
// device, or a link to one) is written into as a stream, as the shell's > does: there is no
// file to replace, and renaming over it would turn the system's /dev/stdout, or the user's
// FIFO, into a regular file.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "cli/output/descriptor_streambuf.h"
#include "cli/output/output_claim.h"
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
  // The destination is a stream (see above), not a file that Commit replaces.
  bool writes_a_stream() const { return writes_a_stream_; }

  // Closes the temporary file and renames it over the destination, after checking the
  // claim again (the destination may have changed while the output was written); for a
  // stream, writes what is buffered and closes it.
  Status Commit();

 private:
  explicit OutputFile(OutputClaim claim) : claim_(std::move(claim)), stream_(&buffer_) {}
  Status WriteError(int error_number) const;

  OutputClaim claim_;
  std::string destination_;  // the claim's path with symlinks resolved: the link is kept
  std::string temporary_;    // empty once committed, and for a stream
  bool writes_a_stream_ = false;
  bool committed_ = false;
  DescriptorStreambuf buffer_;
  std::ostream stream_;
};

// Where a command says "gpuscope: wrote <path>": standard output, unless the output itself
// went to a stream, which may be standard output (report -o /dev/stdout | ...).
std::ostream& WrittenNotice(const OutputFile& file);

}  // namespace gpuscope::cli

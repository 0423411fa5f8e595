#include "cli/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "cli/output_path_checks.h"
#include "cli/unfinished_outputs.h"

namespace gpuscope::cli {
namespace {

// Where the bytes finally go: through a symlink to the file it names (the link stays a
// link), else the path itself.
std::string Destination(const std::string& path) {
  std::error_code error;
  std::filesystem::path resolved = std::filesystem::canonical(path, error);
  return error ? path : resolved.string();
}

std::string FileNameOf(const std::string& path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A hidden name in the destination's directory (rename is atomic only within one file
// system), unique to this process and output.
std::string TemporaryName(const std::string& destination, unsigned attempt) {
  static unsigned next = 0;
  return DirectoryOf(destination) + "/." + FileNameOf(destination) + ".gpuscope-" +
         std::to_string(getpid()) + "-" + std::to_string(next++ + attempt);
}

// Creates the temporary file with the permissions the destination has (or the umask's, for
// a new file); -1 with errno set when the directory does not take it.
int CreateTemporary(const std::string& destination, std::string& temporary) {
  for (unsigned attempt = 0; attempt < 100; ++attempt) {
    temporary = TemporaryName(destination, attempt);
    // Registered before it exists: a signal in between leaves nothing behind.
    RegisterUnfinishedOutput(temporary);
    int fd = open(temporary.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0666);
    int open_errno = errno;
    if (fd >= 0) {
      struct stat existing {};
      if (stat(destination.c_str(), &existing) == 0) fchmod(fd, existing.st_mode & 07777);
      return fd;
    }
    ForgetUnfinishedOutput(temporary);
    errno = open_errno;
    if (errno != EEXIST) return -1;
  }
  return -1;
}

}  // namespace

StatusOr<std::unique_ptr<OutputFile>> OutputFile::Create(OutputClaim claim) {
  GPUSCOPE_RETURN_IF_ERROR(CheckOutputClaim(claim));
  std::string destination = Destination(claim.path);
  std::string temporary;
  int fd = CreateTemporary(destination, temporary);
  int create_errno = errno;
  std::unique_ptr<OutputFile> file(
      new OutputFile(std::move(claim), std::move(destination), std::move(temporary)));
  if (fd < 0) {
    file->temporary_.clear();  // nothing was created
    return file->WriteError(create_errno);
  }
  close(fd);
  file->stream_.open(file->temporary_, std::ios::binary | std::ios::trunc);
  if (!file->stream_) return file->WriteError(errno);
  return file;
}

OutputFile::~OutputFile() {
  if (temporary_.empty()) return;
  stream_.close();
  unlink(temporary_.c_str());
  ForgetUnfinishedOutput(temporary_);
}

Status OutputFile::WriteError(int error_number) const {
  std::string label = claim_.label.empty() ? "" : claim_.label + " ";
  return Status::Error("cannot write " + label + "'" + claim_.path +
                       "': " + std::strerror(error_number));
}

Status OutputFile::Commit() {
  if (temporary_.empty())
    return Status::Error("internal error: " + claim_.path + " committed twice");
  // A write that failed earlier left its errno (EFBIG, ENOSPC) unless something since
  // changed it; the message names the likely reason, the refusal to commit is what counts.
  const bool failed_earlier = stream_.fail();
  if (!failed_earlier) errno = 0;
  stream_.close();
  if (stream_.fail()) return WriteError(errno != 0 ? errno : EIO);
  // Minutes may have passed since Create: whatever appeared at the path meanwhile is
  // protected as it would have been then.
  GPUSCOPE_RETURN_IF_ERROR(CheckOutputClaim(claim_));
  // The checks just passed are about the file the path names now; a link that was turned
  // to another file meanwhile would have the output land on the one checked at Create.
  if (Destination(claim_.path) != destination_) {
    return Status::Error(claim_.path +
                         " was changed to name another file while it was written; "
                         "not writing it");
  }
  if (rename(temporary_.c_str(), destination_.c_str()) != 0) return WriteError(errno);
  ForgetUnfinishedOutput(temporary_);
  temporary_.clear();
  return {};
}

}  // namespace gpuscope::cli

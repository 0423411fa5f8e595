#include "cli/output/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "cli/output/output_path_checks.h"
#include "cli/output/unfinished_outputs.h"
#include "util/symbolic_link_refusal.h"

namespace gpuscope::cli {
namespace {

// Where the bytes finally go: through a symlink to the file it names (the link stays a
// link), else the path itself. Empty when the path is a link that cannot be resolved
// (a loop, a directory on its way we may not search): renaming over the literal path would
// replace the link itself.
std::string Destination(const std::string& path) {
  std::error_code error;
  std::filesystem::path resolved = std::filesystem::canonical(path, error);
  if (!error) return resolved.string();
  return IsSymbolicLink(path) ? std::string() : path;
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

// Creates the temporary file with the permissions the destination has, or readable by its
// owner only for a new file, as reports are: an export holds the same kernel names, command
// line and NVTX strings. -1 with errno set when the directory does not take it.
int CreateTemporary(const std::string& destination, std::string& temporary) {
  for (unsigned attempt = 0; attempt < 100; ++attempt) {
    temporary = TemporaryName(destination, attempt);
    // Registered before it exists: a signal in between leaves nothing behind.
    RegisterUnfinishedOutput(temporary);
    int fd = open(temporary.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
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

// Whether `path` names something that exists and is neither a regular file nor a directory
// (following links): a terminal, a pipe, a FIFO, a socket, a device.
bool NamesAStream(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode);
}

}  // namespace

StatusOr<std::unique_ptr<OutputFile>> OutputFile::Create(OutputClaim claim) {
  GPUSCOPE_RETURN_IF_ERROR(CheckOutputClaim(claim));
  std::unique_ptr<OutputFile> file(new OutputFile(std::move(claim)));
  const std::string& path = file->claim_.path;
  if (NamesAStream(path)) {
    // No O_CREAT: what is not there any more is not created here; no O_TRUNC: a stream has
    // nothing to cut. A FIFO waits for its reader, as the shell's > does.
    int fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return file->WriteError(errno);
    struct stat opened {};
    if (fstat(fd, &opened) != 0 || S_ISREG(opened.st_mode) || S_ISDIR(opened.st_mode)) {
      close(fd);
      return Status::Error(path + " was changed to a file while it was opened; not writing it");
    }
    file->writes_a_stream_ = true;
    file->buffer_.Reset(fd);
    return file;
  }
  file->destination_ = Destination(path);
  if (file->destination_.empty()) {
    return Status::Error("cannot write " + (file->claim_.label.empty() ? "" : file->claim_.label + " ") +
                         "'" + path + "': it is a symbolic link that cannot be followed");
  }
  int fd = CreateTemporary(file->destination_, file->temporary_);
  if (fd < 0) {
    int create_errno = errno;
    file->temporary_.clear();  // nothing was created
    return file->WriteError(create_errno);
  }
  file->buffer_.Reset(fd);
  return file;
}

OutputFile::~OutputFile() {
  buffer_.Close();
  if (temporary_.empty()) return;
  unlink(temporary_.c_str());
  ForgetUnfinishedOutput(temporary_);
}

Status OutputFile::WriteError(int error_number) const {
  std::string label = claim_.label.empty() ? "" : claim_.label + " ";
  return Status::Error("cannot write " + label + "'" + claim_.path +
                       "': " + std::strerror(error_number));
}

Status OutputFile::Commit() {
  if (committed_) return Status::Error("internal error: " + claim_.path + " committed twice");
  committed_ = true;
  stream_.flush();
  const bool closed = buffer_.Close();
  if (!closed) return WriteError(buffer_.error());
  if (stream_.bad()) return WriteError(EIO);  // a formatter failed, not a write
  if (writes_a_stream_) return {};
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
  // A device or FIFO that took the file's place meanwhile is never renamed over.
  struct stat info {};
  if (lstat(destination_.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    return Status::Error(claim_.path + " was changed to something other than a file while it "
                                       "was written; not writing it");
  }
  if (rename(temporary_.c_str(), destination_.c_str()) != 0) return WriteError(errno);
  ForgetUnfinishedOutput(temporary_);
  temporary_.clear();
  return {};
}

std::ostream& WrittenNotice(const OutputFile& file) {
  return file.writes_a_stream() ? std::cerr : std::cout;
}

}  // namespace gpuscope::cli

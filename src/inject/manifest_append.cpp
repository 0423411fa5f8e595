#include "inject/manifest_append.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpuscope::inject {

Status AppendToManifest(const std::string& manifest_path, const std::string& line) {
  if (manifest_path.empty()) return Status();
  // No O_CREAT: the launcher creates the file and removes it once it has read it; a process
  // registering after that must not leave a new one behind (its error says it was late).
  int fd = open(manifest_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) {
    return Status::Error("cannot open manifest " + manifest_path + ": " + std::strerror(errno));
  }
  ssize_t written = write(fd, line.data(), line.size());
  int saved_errno = errno;
  close(fd);
  if (written != static_cast<ssize_t>(line.size())) {
    return Status::Error("cannot append to manifest " + manifest_path + ": " +
                         (written < 0 ? std::strerror(saved_errno) : "short write"));
  }
  return Status();
}

}  // namespace gpuscope::inject

#include "cli/launch/manifest_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "cli/output/temp_dir.h"

namespace gpuscope::cli {

Manifest ParseManifest(std::string_view text, std::uint32_t root_pid) {
  Manifest manifest;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t newline = text.find('\n', begin);
    std::size_t end = newline == std::string_view::npos ? text.size() : newline + 1;
    std::string_view line = text.substr(begin, end - begin);  // with its newline, if any
    begin = end;
    std::string_view content = line.substr(0, line.find('\n'));
    if (content.empty()) continue;
    std::optional<ManifestEntry> entry = contract::ParseManifestLine(line);
    if (!entry) {
      manifest.malformed_lines.emplace_back(content);
      continue;
    }
    bool seen =
        std::any_of(manifest.entries.begin(), manifest.entries.end(),
                    [&](const ManifestEntry& e) { return e.report_path == entry->report_path; });
    if (!seen) manifest.entries.push_back(std::move(*entry));
  }
  std::stable_partition(manifest.entries.begin(), manifest.entries.end(),
                        [&](const ManifestEntry& e) { return e.pid == root_pid; });
  return manifest;
}

StatusOr<std::string> CreateManifestFile() {
  std::string path = TemporaryDirectory() + "/gpuscope-manifest-XXXXXX";
  // O_CLOEXEC: the program must not inherit our descriptor; it opens the file by name.
  int fd = mkostemp(path.data(), O_CLOEXEC);
  if (fd < 0) {
    return Status::Error("cannot create the manifest file " + path + ": " + std::strerror(errno));
  }
  close(fd);
  return path;
}

StatusOr<Manifest> TakeManifest(const std::string& path, std::uint32_t root_pid) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::Error("cannot read the manifest file " + path + ": " + std::strerror(errno));
  }
  unlink(path.c_str());
  std::string text;
  char buffer[4096];
  ssize_t got;
  while ((got = read(fd, buffer, sizeof(buffer))) != 0) {
    if (got < 0) {
      if (errno == EINTR) continue;
      int error = errno;
      close(fd);
      return Status::Error("cannot read the manifest file " + path + ": " + std::strerror(error));
    }
    text.append(buffer, static_cast<std::size_t>(got));
  }
  close(fd);
  return ParseManifest(text, root_pid);
}

}  // namespace gpuscope::cli

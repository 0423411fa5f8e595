#include "cli/manifest.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>

#include "cli/temp_dir.h"

namespace gpuscope::cli {
namespace {

bool ParseNumber(std::string_view text, std::uint32_t& value) {
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

bool ParseLine(std::string_view line, ManifestEntry& entry) {
  std::size_t first_tab = line.find('\t');
  if (first_tab == std::string_view::npos) return false;
  std::size_t second_tab = line.find('\t', first_tab + 1);
  if (second_tab == std::string_view::npos) return false;
  entry.report_path = std::string(line.substr(second_tab + 1));
  return ParseNumber(line.substr(0, first_tab), entry.pid) &&
         ParseNumber(line.substr(first_tab + 1, second_tab - first_tab - 1), entry.parent_pid) &&
         !entry.report_path.empty();
}

}  // namespace

Manifest ParseManifest(std::string_view text, std::uint32_t root_pid) {
  Manifest manifest;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    bool complete = end != std::string_view::npos;
    if (!complete) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    if (line.empty()) continue;
    ManifestEntry entry;
    // A line without its newline was cut short by a process that died while writing it.
    if (!complete || !ParseLine(line, entry)) {
      manifest.malformed_lines.emplace_back(line);
      continue;
    }
    bool seen =
        std::any_of(manifest.entries.begin(), manifest.entries.end(),
                    [&](const ManifestEntry& e) { return e.report_path == entry.report_path; });
    if (!seen) manifest.entries.push_back(std::move(entry));
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

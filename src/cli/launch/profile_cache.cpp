#include "cli/launch/profile_cache.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "cli/launch/install_paths.h"
#include "contract/environment_variables.h"

namespace gpuscope::cli {
namespace {

constexpr const char* kNvidiaProc = "/proc/driver/nvidia";

std::optional<std::string> CacheDirectory() {
  if (const char* dir = std::getenv(contract::kCacheDirVariable); dir != nullptr && *dir != '\0') {
    if (std::string(dir) == "off") return std::nullopt;
    return std::string(dir);
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::string(xdg) + "/gpuscope";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::string(home) + "/.cache/gpuscope";
  }
  return std::nullopt;
}

std::optional<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// mkdir -p, ignoring errors (a failure shows up when the file cannot be written).
void MakeDirectories(const std::string& dir) {
  for (std::size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    mkdir(dir.substr(0, slash).c_str(), 0700);
    if (slash == std::string::npos) break;
  }
}

// Written to a temporary name and renamed: a reader never sees half a file, and two
// gpuscope runs writing the same entry do not mix their bytes.
void WriteAtomically(const std::string& name, const std::string& bytes) {
  std::optional<std::string> dir = CacheDirectory();
  if (!dir) return;
  MakeDirectories(*dir);
  const std::string path = *dir + "/" + name;
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::remove(temporary.c_str());
      return;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) std::remove(temporary.c_str());
}

std::optional<std::string> ReadEntry(const std::string& name) {
  std::optional<std::string> dir = CacheDirectory();
  if (!dir) return std::nullopt;
  return ReadText(*dir + "/" + name);
}

// The machine's GPUs as the driver describes them (model, bus, ...), with the driver
// version and the devices CUDA may see. Empty when there is nothing to describe or the
// GPUs are of different models (then CUDA's device order decides which one is device 0).
std::string GpuSetDescription() {
  std::optional<std::string> version = ReadText(std::string(kNvidiaProc) + "/version");
  if (!version) return {};
  std::vector<std::string> gpus;
  if (DIR* dir = opendir((std::string(kNvidiaProc) + "/gpus").c_str())) {
    while (dirent* entry = readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      std::optional<std::string> info =
          ReadText(std::string(kNvidiaProc) + "/gpus/" + entry->d_name + "/information");
      if (info) gpus.push_back(*info);
    }
    closedir(dir);
  }
  if (gpus.empty()) return {};
  auto model_of = [](const std::string& info) { return info.substr(0, info.find('\n')); };
  for (const std::string& gpu : gpus) {
    if (model_of(gpu) != model_of(gpus.front())) return {};
  }
  std::sort(gpus.begin(), gpus.end());
  std::string description = *version;
  for (const std::string& gpu : gpus) description += gpu;
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
    description += std::string("CUDA_VISIBLE_DEVICES=") + visible;
  }
  return description;
}

// The CUPTI library the images come from: another version may build other images.
std::string CuptiIdentity() {
  const std::string library =
      CuptiDirectory(std::getenv(contract::kCuptiDirVariable)) + "/" + kCuptiLibraryName;
  char resolved[4096] = {};
  std::string path = realpath(library.c_str(), resolved) != nullptr ? resolved : library;
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return path;
  return path + ":" + std::to_string(info.st_size) + ":" + std::to_string(info.st_mtime);
}

std::string ConfigEntryName(const std::string& chip, const std::vector<std::string>& metrics) {
  std::string text = chip + "\n" + CuptiIdentity() + "\n";
  for (const std::string& metric : metrics) text += metric + ",";
  return "config-" + chip + "-" + CacheKey(text) + ".bin";
}

}  // namespace

std::string CacheKey(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

std::optional<std::string> CachedChip() {
  const std::string gpus = GpuSetDescription();
  if (gpus.empty()) return std::nullopt;
  std::optional<std::string> chip = ReadEntry("chip-" + CacheKey(gpus));
  if (!chip || chip->empty() || chip->find('\n') != std::string::npos) return std::nullopt;
  return chip;
}

void RememberChip(const std::string& chip) {
  const std::string gpus = GpuSetDescription();
  if (gpus.empty() || chip.empty()) return;
  WriteAtomically("chip-" + CacheKey(gpus), chip);
}

std::optional<cupti::host::ConfigImage> CachedConfigImage(const std::string& chip,
                                                          const std::vector<std::string>& metrics) {
  std::optional<std::string> bytes = ReadEntry(ConfigEntryName(chip, metrics));
  // Layout: "<passes> <image size>\n" then the image. The size catches an entry cut short
  // (a full disk): a truncated image would reach CUPTI instead of being rebuilt.
  if (!bytes) return std::nullopt;
  const std::size_t newline = bytes->find('\n');
  const std::size_t space = bytes->find(' ');
  if (newline == std::string::npos || space == std::string::npos || space > newline) {
    return std::nullopt;
  }
  cupti::host::ConfigImage image;
  std::size_t size = 0;
  const char* text = bytes->data();
  auto passes = std::from_chars(text, text + space, image.passes);
  auto length = std::from_chars(text + space + 1, text + newline, size);
  if (passes.ec != std::errc() || passes.ptr != text + space || length.ec != std::errc() ||
      length.ptr != text + newline || image.passes == 0 || size == 0 ||
      bytes->size() - newline - 1 != size) {
    return std::nullopt;
  }
  image.bytes.assign(bytes->begin() + static_cast<std::ptrdiff_t>(newline) + 1, bytes->end());
  return image;
}

void RememberConfigImage(const std::string& chip, const std::vector<std::string>& metrics,
                         const cupti::host::ConfigImage& image) {
  std::string bytes =
      std::to_string(image.passes) + " " + std::to_string(image.bytes.size()) + "\n";
  bytes.append(image.bytes.begin(), image.bytes.end());
  WriteAtomically(ConfigEntryName(chip, metrics), bytes);
}

}  // namespace gpuscope::cli

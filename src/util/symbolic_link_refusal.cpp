#include "util/symbolic_link_refusal.h"

#include <sys/stat.h>
#include <unistd.h>

#include <array>

namespace gpuscope {

bool IsSymbolicLink(const std::string& path) {
  struct stat info {};
  return lstat(path.c_str(), &info) == 0 && S_ISLNK(info.st_mode);
}

namespace {

// Whoever made the link chose its target: control characters in it (a newline, a terminal
// escape) would break the one-line message, so they show as '?'.
std::string Printable(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return text;
}

}  // namespace

Status SymbolicLinkRefusal(const std::string& path, std::string_view what,
                           std::string_view detail) {
  std::array<char, 4096> target{};
  ssize_t length = readlink(path.c_str(), target.data(), target.size() - 1);
  std::string message = what.empty() ? path : std::string(what) + " " + path;
  message += " is a symbolic link";
  // The target as the link spells it: the user sees where the bytes would have gone.
  if (length > 0) {
    message += " to " + Printable(std::string(target.data(), static_cast<std::size_t>(length)));
  }
  message += detail;
  message += "; not writing through it";
  return Status::Error(std::move(message));
}

Status RefuseSymbolicLink(const std::string& path, std::string_view what) {
  return IsSymbolicLink(path) ? SymbolicLinkRefusal(path, what) : Status();
}

}  // namespace gpuscope

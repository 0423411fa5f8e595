#include "viewer/web_assets.h"

namespace gpuscope::viewer {

std::string_view ContentTypeFor(std::string_view path) {
  struct Type {
    std::string_view extension, content_type;
  };
  static constexpr Type kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".txt", "text/plain; charset=utf-8"},
      {".map", "application/json"},
  };
  for (const Type& type : kTypes) {
    if (path.size() >= type.extension.size() &&
        path.substr(path.size() - type.extension.size()) == type.extension) {
      return type.content_type;
    }
  }
  return "application/octet-stream";
}

std::optional<Asset> FindAsset(std::span<const EmbeddedFile> files, std::string_view url_path) {
  if (url_path.empty() || url_path.front() != '/') return std::nullopt;
  std::string_view relative = url_path.substr(1);
  if (relative.empty()) relative = "index.html";
  // Embedded paths never contain "..", but say no before looking, to be plain about it.
  if (relative.find("..") != std::string_view::npos) return std::nullopt;
  for (const EmbeddedFile& file : files) {
    if (file.path == relative) return Asset{file.path, file.bytes, ContentTypeFor(file.path)};
  }
  return std::nullopt;
}

std::optional<Asset> FindAsset(std::string_view url_path) {
  return FindAsset(WebAssets(), url_path);
}

}  // namespace gpuscope::viewer

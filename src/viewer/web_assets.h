// The viewer's web assets (src/viewer/web/: index.html, ES modules, CSS), embedded into the
// binary at build time by embed_web_assets.cmake, and their lookup by URL path.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace gpuscope::viewer {

struct EmbeddedFile {
  std::string_view path;  // relative to the web directory, '/'-separated: "app.js"
  std::string_view bytes;
};

struct Asset {
  std::string_view path;
  std::string_view bytes;
  std::string_view content_type;
};

// The files of src/viewer/web/ as they were at build time (generated).
std::span<const EmbeddedFile> WebAssets();

// "text/javascript; charset=utf-8" for .js/.mjs, "text/css; ...", "text/html; ...",
// "image/svg+xml", ...; "application/octet-stream" for anything unknown.
std::string_view ContentTypeFor(std::string_view path);

// The asset a URL path names: "/" is index.html, "/app.js" is app.js. nullopt for unknown
// files and for paths that try to leave the directory ("..").
std::optional<Asset> FindAsset(std::span<const EmbeddedFile> files, std::string_view url_path);
std::optional<Asset> FindAsset(std::string_view url_path);

}  // namespace gpuscope::viewer

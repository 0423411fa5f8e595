// Embedding of web assets at build time and their lookup by URL path.
#include "viewer/web_assets.h"

#include <gtest/gtest.h>

#include "../export/test_reports.h"

namespace gpuscope::viewer {
std::span<const EmbeddedFile> PlaceholderWebAssets();

namespace {

TEST(WebAssetsTest, EmbedsEveryFileByteForByte) {
  std::vector<std::string> paths;
  for (const EmbeddedFile& file : PlaceholderWebAssets()) {
    paths.emplace_back(file.path);
    EXPECT_EQ(file.bytes,
              exporter::testing::ReadWholeFile(std::string(GPUSCOPE_PLACEHOLDER_WEB_DIR) + "/" +
                                               std::string(file.path)))
        << file.path;
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"app.js", "count.js", "index.html", "lib/describe.js",
                                             "style.css"}));
}

TEST(WebAssetsTest, FindsAssetsByUrlPath) {
  auto index = FindAsset(PlaceholderWebAssets(), "/");
  ASSERT_TRUE(index.has_value());
  EXPECT_EQ(index->path, "index.html");
  EXPECT_EQ(index->content_type, "text/html; charset=utf-8");
  auto module = FindAsset(PlaceholderWebAssets(), "/lib/describe.js");
  ASSERT_TRUE(module.has_value());
  EXPECT_EQ(module->content_type, "text/javascript; charset=utf-8");
  EXPECT_FALSE(FindAsset(PlaceholderWebAssets(), "/missing.js"));
  EXPECT_FALSE(FindAsset(PlaceholderWebAssets(), "/lib/../app.js"));
  EXPECT_FALSE(FindAsset(PlaceholderWebAssets(), "app.js"));
  EXPECT_FALSE(FindAsset(PlaceholderWebAssets(), ""));
}

TEST(WebAssetsTest, ContentTypes) {
  EXPECT_EQ(ContentTypeFor("a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("a.mjs"), "text/javascript; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("a.svg"), "image/svg+xml");
  EXPECT_EQ(ContentTypeFor("README"), "application/octet-stream");
}

TEST(WebAssetsTest, TheProductTableHasTheViewerWhenItIsBuiltIn) {
  // Every build embeds src/viewer/web/ (src/viewer/CMakeLists.txt has no option to leave it
  // out), so an empty or index-less table is the regression this test exists for: a moved
  // web directory or a broken embedding step would otherwise ship a viewer that serves 404.
  bool has_index = false;
  for (const EmbeddedFile& file : WebAssets()) has_index = has_index || file.path == "index.html";
  ASSERT_TRUE(has_index) << "the product's web assets have no index.html: was src/viewer/web/ "
                            "embedded?";
  auto index = FindAsset("/");
  ASSERT_TRUE(index.has_value());
  EXPECT_NE(index->bytes.find("<html"), std::string_view::npos);
}

}  // namespace
}  // namespace gpuscope::viewer

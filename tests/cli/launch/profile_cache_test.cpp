// The profile cache (chip and CUPTI config images kept between runs), in a scratch
// GPUSCOPE_CACHE_DIR. What it promises: a remembered image reads back identically, a
// different key misses, and a damaged entry is a miss (recomputed), never a crash or a
// wrong image handed to CUPTI.
#include "cli/launch/profile_cache.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kMetrics = {"dram__bytes.sum", "gpu__time_duration.sum",
                                           "sm__throughput.avg.pct_of_peak_sustained_elapsed"};

cupti::host::ConfigImage SampleImage() {
  cupti::host::ConfigImage image;
  image.passes = 37;
  image.bytes.resize(20'000);
  for (std::size_t i = 0; i < image.bytes.size(); ++i) {
    // Includes '\n' and 0 bytes: the image is binary after the header line.
    image.bytes[i] = static_cast<std::uint8_t>((i * 7) ^ (i >> 5));
  }
  return image;
}

class ProfileCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* old = std::getenv("GPUSCOPE_CACHE_DIR")) saved_ = old;
    setenv("GPUSCOPE_CACHE_DIR", dir_.File("cache").c_str(), 1);
  }
  void TearDown() override {
    if (saved_) {
      setenv("GPUSCOPE_CACHE_DIR", saved_->c_str(), 1);
    } else {
      unsetenv("GPUSCOPE_CACHE_DIR");
    }
  }

  // The one config entry the cache wrote (fails the test when there is not exactly one).
  std::string OnlyConfigEntry() {
    std::vector<std::string> entries;
    for (const auto& entry : fs::directory_iterator(dir_.File("cache"))) {
      if (entry.path().filename().string().rfind("config-", 0) == 0) {
        entries.push_back(entry.path().string());
      }
    }
    EXPECT_EQ(entries.size(), 1u);
    return entries.empty() ? std::string() : entries.front();
  }

  void Overwrite(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  testing::TempDir dir_;
  std::optional<std::string> saved_;
};

// Guards the layout (passes line, then the binary image) and the key: same chip and
// metric list hit with identical bytes and passes.
TEST_F(ProfileCacheTest, ARememberedImageReadsBackIdentically) {
  EXPECT_FALSE(CachedConfigImage("GH100", kMetrics).has_value()) << "empty cache must miss";
  const cupti::host::ConfigImage image = SampleImage();
  RememberConfigImage("GH100", kMetrics, image);
  std::optional<cupti::host::ConfigImage> cached = CachedConfigImage("GH100", kMetrics);
  ASSERT_TRUE(cached.has_value());
  EXPECT_EQ(cached->passes, 37u);
  EXPECT_TRUE(cached->bytes == image.bytes) << "the cached image differs from the remembered one";
}

// Guards the key: another metric list (also the same names in another order, which CUPTI
// configures differently) or another chip must not get this image.
TEST_F(ProfileCacheTest, AnotherMetricListOrChipMisses) {
  RememberConfigImage("GH100", kMetrics, SampleImage());
  EXPECT_FALSE(CachedConfigImage("GH100", {"dram__bytes.sum"}).has_value());
  EXPECT_FALSE(CachedConfigImage("GH100", {kMetrics[1], kMetrics[0], kMetrics[2]}).has_value());
  EXPECT_FALSE(CachedConfigImage("GA100", kMetrics).has_value());
  EXPECT_TRUE(CachedConfigImage("GH100", kMetrics).has_value());
}

// Guards the "any problem means recompute" rule against entries cut short (a full disk,
// a crash of an older gpuscope) and against garbage.
TEST_F(ProfileCacheTest, DamagedEntriesMiss) {
  const cupti::host::ConfigImage image = SampleImage();
  RememberConfigImage("GH100", kMetrics, image);
  const std::string entry = OnlyConfigEntry();
  ASSERT_FALSE(entry.empty());
  std::string whole;
  {
    std::ifstream in(entry, std::ios::binary);
    whole.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  ASSERT_GT(whole.size(), image.bytes.size());

  const std::string rest = whole.substr(whole.find('\n') + 1);  // the image
  const std::string size = std::to_string(image.bytes.size());
  const std::vector<std::string> damaged = {
      "",                                   // empty file
      "37",                                 // header cut before its newline
      "37 " + size + "\n",                  // header only, no image
      whole.substr(0, whole.size() / 2),    // image cut in the middle
      whole.substr(0, whole.size() - 1),    // last byte missing
      "0 " + size + "\n" + rest,            // zero passes
      "many " + size + "\n" + rest,         // not a number
      "-5 " + size + "\n" + rest,           // negative
      "99999999999 " + size + "\n" + rest,  // does not fit
      "37 " + size + "1\n" + rest,          // size says more than there is
      "37\n" + rest,                        // no size
      std::string(300, '\xff'),             // garbage
  };

  for (std::size_t i = 0; i < damaged.size(); ++i) {
    Overwrite(entry, damaged[i]);
    EXPECT_FALSE(CachedConfigImage("GH100", kMetrics).has_value()) << "damaged entry " << i;
  }
  // The cache heals: remembering again makes it hit.
  RememberConfigImage("GH100", kMetrics, image);
  std::optional<cupti::host::ConfigImage> cached = CachedConfigImage("GH100", kMetrics);
  ASSERT_TRUE(cached.has_value());
  EXPECT_TRUE(cached->bytes == image.bytes);
}

// Guards GPUSCOPE_CACHE_DIR=off: nothing is written, nothing is read.
TEST_F(ProfileCacheTest, OffDisablesTheCache) {
  RememberConfigImage("GH100", kMetrics, SampleImage());
  ASSERT_TRUE(CachedConfigImage("GH100", kMetrics).has_value());
  setenv("GPUSCOPE_CACHE_DIR", "off", 1);
  EXPECT_FALSE(CachedConfigImage("GH100", kMetrics).has_value()) << "off must not read";
  RememberConfigImage("GA100", kMetrics, SampleImage());
  EXPECT_FALSE(fs::exists("off")) << "off is not a directory name";
  setenv("GPUSCOPE_CACHE_DIR", dir_.File("cache").c_str(), 1);
  EXPECT_FALSE(CachedConfigImage("GA100", kMetrics).has_value()) << "off must not write";
}

// Guards the key function: FNV-1a, 16 hex digits, stable across runs and releases (a
// changed hash would silently orphan every cached entry), different for different text.
TEST(ProfileCacheKeyTest, StableAndDistinguishing) {
  EXPECT_EQ(CacheKey(""), "cbf29ce484222325");   // FNV-1a 64 offset basis
  EXPECT_EQ(CacheKey("a"), "af63dc4c8601ec8c");  // published FNV-1a 64 test vector
  EXPECT_EQ(CacheKey("GH100\nx"), CacheKey("GH100\nx"));
  EXPECT_NE(CacheKey("GH100\ndram__bytes.sum,"), CacheKey("GH100\ndram__bytes.sum,,"));
  EXPECT_NE(CacheKey("ab"), CacheKey("ba"));
  const std::string key = CacheKey("anything");
  EXPECT_EQ(key.size(), 16u);
  EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos) << key;
}

// This machine has no NVIDIA driver: the chip cannot be described, so it is never cached.
TEST_F(ProfileCacheTest, ChipIsNotCachedWithoutTheDriver) {
  if (fs::exists("/proc/driver/nvidia/version")) GTEST_SKIP() << "a driver is present";
  RememberChip("GH100");  // must not crash, nor invent a GPU set
  EXPECT_FALSE(CachedChip().has_value());
}

}  // namespace
}  // namespace gpuscope::cli

// --nvtx-include in ncu's spelling (util/nvtx_range_filter.h): push/pop with a trailing '/',
// start/end without, an optional domain@, exact names or regex:, any spec may match.
#include "util/nvtx_range_filter.h"

#include <gtest/gtest.h>

namespace gpuscope {
namespace {

NvtxRangeFilter FilterOf(std::vector<std::string> specs) {
  StatusOr<NvtxRangeFilter> filter = NvtxRangeFilter::Parse(specs);
  EXPECT_TRUE(filter.ok()) << filter.status().message();
  return filter.ok() ? *filter : NvtxRangeFilter();
}

TEST(NvtxRangeFilter, TrailingSlashIsPushPopAndDefaultDomainIsEmpty) {
  NvtxRangeFilter filter = FilterOf({"solver/"});
  EXPECT_TRUE(filter.Matches(NvtxRangeKind::kPushPop, "", "solver"));
  EXPECT_FALSE(filter.Matches(NvtxRangeKind::kStartEnd, "", "solver"));
  EXPECT_FALSE(filter.Matches(NvtxRangeKind::kPushPop, "MyDomain", "solver"));
  EXPECT_FALSE(filter.Matches(NvtxRangeKind::kPushPop, "", "solver2"));
  EXPECT_TRUE(filter.Wants(NvtxRangeKind::kPushPop));
  EXPECT_FALSE(filter.Wants(NvtxRangeKind::kStartEnd));
}

TEST(NvtxRangeFilter, DomainAtNameIsAStartEndRangeOfThatDomain) {
  NvtxRangeFilter filter = FilterOf({"MyDomain@step"});
  EXPECT_TRUE(filter.Matches(NvtxRangeKind::kStartEnd, "MyDomain", "step"));
  EXPECT_FALSE(filter.Matches(NvtxRangeKind::kStartEnd, "", "step"));
  EXPECT_FALSE(filter.Matches(NvtxRangeKind::kPushPop, "MyDomain", "step"));
}

TEST(NvtxRangeFilter, RegexNamesAndSeveralSpecs) {
  NvtxRangeFilter filter = FilterOf({"D@regex:^layer[0-9]+$/", "warmup"});
  EXPECT_TRUE(filter.Matches(NvtxRangeKind::kPushPop, "D", "layer12"));
  EXPECT_FALSE(filter.Matches(NvtxRangeKind::kPushPop, "D", "layer"));
  EXPECT_TRUE(filter.Matches(NvtxRangeKind::kStartEnd, "", "warmup"));
  // '@' and '/' inside a regex belong to it.
  NvtxRangeFilter at = FilterOf({"regex:a@b"});
  EXPECT_TRUE(at.Matches(NvtxRangeKind::kStartEnd, "", "xa@by"));
}

TEST(NvtxRangeFilter, UnsupportedAndEmptyFormsAreOneLineErrors) {
  for (const char* text : {"A/B/", "[A", "B]", "A/*/B", "", "/", "D@", "@name"}) {
    StatusOr<NvtxRangeSpec> spec = ParseNvtxRangeSpec(text);
    EXPECT_FALSE(spec.ok()) << text;
    if (!spec.ok()) {
      EXPECT_EQ(spec.status().message().find('\n'), std::string::npos);
    }
  }
}

TEST(NvtxRangeFilter, DisplayNames) {
  EXPECT_EQ(NvtxRangeDisplayName("", "solver"), "solver");
  EXPECT_EQ(NvtxRangeDisplayName("MyDomain", "step"), "MyDomain@step");
}

}  // namespace
}  // namespace gpuscope

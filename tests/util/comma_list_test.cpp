// The comma lists of the launcher -> injection contract and of report meta rows.
#include "util/comma_list.h"

#include <gtest/gtest.h>

namespace gpuscope {
namespace {

TEST(CommaList, SplitDropsEmptyItemsAndTrimsNothing) {
  EXPECT_EQ(SplitCommaList("a,b,,c,"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(SplitCommaList(",a, b"), (std::vector<std::string>{"a", " b"}));
  EXPECT_TRUE(SplitCommaList("").empty());
  EXPECT_TRUE(SplitCommaList(",,").empty());
}

TEST(CommaList, JoinIsTheInverseOfSplit) {
  const std::vector<std::string> names = {"dram__bytes.sum", "gpu__time_duration.sum"};
  EXPECT_EQ(JoinCommaList(names), "dram__bytes.sum,gpu__time_duration.sum");
  EXPECT_EQ(SplitCommaList(JoinCommaList(names)), names);
  EXPECT_EQ(JoinCommaList({}), "");
}

}  // namespace
}  // namespace gpuscope

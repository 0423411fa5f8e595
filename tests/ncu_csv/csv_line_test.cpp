#include "csv_line.h"

#include <gtest/gtest.h>

namespace gpuscope::ncu_csv {
namespace {

using Fields = std::vector<std::string>;

TEST(SplitCsvLine, UnquotesEveryFieldAndKeepsCommasInsideQuotes) {
  auto fields = SplitCsvLine(
      R"csv("0","4711","k_saxpy(long, float, const float *, float *)","(262144, 1, 1)","33,554,432")csv");
  ASSERT_TRUE(fields);
  EXPECT_EQ(*fields, (Fields{"0", "4711", "k_saxpy(long, float, const float *, float *)",
                             "(262144, 1, 1)", "33,554,432"}));
}

TEST(SplitCsvLine, EmptyFieldsAndADoubledQuoteInsideAField) {
  auto fields = SplitCsvLine(R"("","say ""hi""",,"x")");
  ASSERT_TRUE(fields);
  EXPECT_EQ(*fields, (Fields{"", "say \"hi\"", "", "x"}));
}

TEST(SplitCsvLine, IgnoresATrailingCarriageReturn) {
  auto fields = SplitCsvLine("\"a\",\"b\"\r");
  ASSERT_TRUE(fields);
  EXPECT_EQ(*fields, (Fields{"a", "b"}));
}

TEST(SplitCsvLine, RejectsAnOpenQuoteAndTextAfterAClosingQuote) {
  EXPECT_FALSE(SplitCsvLine(R"("a","b)"));
  EXPECT_FALSE(SplitCsvLine(R"("a"x,"b")"));
  EXPECT_FALSE(SplitCsvLine(R"(ab"c,d)"));
}

TEST(LooksLikeQuotedRecord, OnlyLinesStartingWithAQuote) {
  EXPECT_TRUE(LooksLikeQuotedRecord(R"("ID","Process ID")"));
  EXPECT_FALSE(LooksLikeQuotedRecord("==PROF== Disconnected from process 4711"));
  EXPECT_FALSE(LooksLikeQuotedRecord(""));
}

}  // namespace
}  // namespace gpuscope::ncu_csv

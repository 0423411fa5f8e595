#include "render/escaping.h"

#include <gtest/gtest.h>

namespace gpuscope::analysis {
namespace {

using render::CsvField;
using render::CsvQuoted;
using render::JsonString;

TEST(CsvQuoted, QuotesEverythingAndDoublesInnerQuotes) {
  EXPECT_EQ(CsvQuoted("cudaMalloc"), "\"cudaMalloc\"");
  EXPECT_EQ(CsvQuoted("f<\"a,b\">(int)"), "\"f<\"\"a,b\"\">(int)\"");
  EXPECT_EQ(CsvQuoted(""), "\"\"");
}

TEST(CsvField, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(CsvField("flash_attention_prefill_f16"), "flash_attention_prefill_f16");
  EXPECT_EQ(CsvField("void f<int, float>(int*)"), "\"void f<int, float>(int*)\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
}

TEST(JsonString, EscapesWhatJsonForbids) {
  EXPECT_EQ(JsonString("plain"), "\"plain\"");
  EXPECT_EQ(JsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonString("tab\there\nnew"), "\"tab\\there\\nnew\"");
  EXPECT_EQ(JsonString(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
  EXPECT_EQ(JsonString("\x01"), "\"\\u0001\"");
}

TEST(JsonString, KeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(JsonString("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80"),
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80\"");
  EXPECT_EQ(JsonString("bad\xff"), "\"bad\\ufffd\"");
  EXPECT_EQ(JsonString("cut\xe2\x82"), "\"cut\\ufffd\\ufffd\"");       // truncated sequence
  EXPECT_EQ(JsonString("\xc0\xaf"), "\"\\ufffd\\ufffd\"");             // overlong '/'
  EXPECT_EQ(JsonString("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // a UTF-16 surrogate
}

}  // namespace
}  // namespace gpuscope::analysis

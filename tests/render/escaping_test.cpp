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

namespace gpuscope::render {
namespace {

// Issue 14: names from a program are arbitrary bytes.
TEST(HostileText, TerminalTextShowsControlCharacters) {
  EXPECT_EQ(TerminalText("a\x1b]0;owned\x07" "b\r\nc\x7f"), "a\\x1b]0;owned\\x07b\\x0d\\x0ac\\x7f");
  EXPECT_EQ(TerminalText("add(int, int, int*) \xc3\xa9"), "add(int, int, int*) \xc3\xa9");
}

TEST(HostileText, CsvCellsAreNeverFormulas) {
  EXPECT_EQ(CsvField("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
  EXPECT_EQ(CsvField("+1+cmd"), "'+1+cmd");
  EXPECT_EQ(CsvField("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(CsvField("-2+3"), "-2+3");  // a plain number stays a number
  EXPECT_EQ(CsvField("-1.050"), "-1.050");
  EXPECT_EQ(CsvField("-"), "-");
  EXPECT_EQ(CsvQuoted("=1"), "\"'=1\"");
  EXPECT_EQ(CsvField("kernel"), "kernel");
}

TEST(HostileText, CsvCellsAreValidUtf8WithoutNul) {
  EXPECT_EQ(CsvField(std::string_view("a\0b", 3)), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(CsvField("x\xff\xc3"), "x\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(CsvField("\xc3\xa9"), "\xc3\xa9");
}

TEST(HostileText, JsonNumbersAreFinite) {
  EXPECT_EQ(JsonNumber(1.0 / 0.0), "null");
  EXPECT_EQ(JsonNumber(-1.0 / 0.0), "null");
  EXPECT_EQ(JsonNumber(0.0 / 0.0), "null");
  EXPECT_EQ(JsonNumber(0.5), "0.5");
}

}  // namespace
}  // namespace gpuscope::render

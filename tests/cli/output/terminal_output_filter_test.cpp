#include "cli/output/terminal_output_filter.h"

#include <gtest/gtest.h>

#include <ostream>
#include <sstream>

namespace gpuscope::cli {
namespace {

// What a terminal receives when `pieces` are written one after another.
std::string Filtered(std::initializer_list<std::string> pieces) {
  std::stringbuf target;
  {
    TerminalEscapingStreambuf filter(&target);
    std::ostream out(&filter);
    for (const std::string& piece : pieces) out << piece << std::flush;
  }
  return target.str();
}

TEST(TerminalEscapingStreambuf, ControlCharactersAreShownNotObeyed) {
  EXPECT_EQ(Filtered({"a\x1b]0;t\x07" "b"}), "a\\x1b]0;t\\x07b");
  EXPECT_EQ(Filtered({std::string("n\0ul\x7f", 5)}), "n\\x00ul\\x7f");
  EXPECT_EQ(Filtered({"over\rwrite"}), "over\\x0dwrite");
  EXPECT_EQ(Filtered({"\xc2\x9b" "2J"}), "\\xc2\\x9b2J");  // U+009B, CSI
}

TEST(TerminalEscapingStreambuf, LinesTabsAndTextPassAsTheyAre) {
  EXPECT_EQ(Filtered({"a\tb\nc\r\nd"}), "a\tb\nc\r\nd");
  EXPECT_EQ(Filtered({"caf\xc3\xa9 \xc2\xb5s \xe2\x80\x94"}), "caf\xc3\xa9 \xc2\xb5s \xe2\x80\x94");
}

// A CRLF or a two-byte character split between two writes is judged whole.
TEST(TerminalEscapingStreambuf, PairsSplitAcrossWritesAreJudgedWhole) {
  EXPECT_EQ(Filtered({"row\r", "\nnext"}), "row\r\nnext");
  EXPECT_EQ(Filtered({"\xc2", "\xb5s"}), "\xc2\xb5s");
  EXPECT_EQ(Filtered({"\xc2", "\x9b"}), "\\xc2\\x9b");
  EXPECT_EQ(Filtered({"end\r"}), "end\\x0d");
  EXPECT_EQ(Filtered({"end\xc2"}), "end\xc2");
}

}  // namespace
}  // namespace gpuscope::cli

#include "cli/option_parser.h"

#include <gtest/gtest.h>

namespace gpuscope::cli {
namespace {

enum { kOutput, kForce, kUnit, kCsv };

constexpr OptionSpec kSpecs[] = {
    {kOutput, "export-profile", 'o', "file", "report"},
    {kForce, "force-overwrite", 'f', "", "overwrite"},
    {kUnit, "normalized-time-unit", 'u', "unit", "unit"},
    {kCsv, "csv", 0, "", "csv"},
};

StatusOr<ParsedCommandLine> Parse(std::vector<std::string> args,
                                  OperandMode mode = OperandMode::kStopAtFirstOperand) {
  return ParseOptions(kSpecs, args, mode);
}

TEST(OptionParser, AcceptsEveryValueSpelling) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--export-profile", "r.sqlite"},
                                             {"--export-profile=r.sqlite"},
                                             {"-o", "r.sqlite"},
                                             {"-or.sqlite"},
                                             {"-o=r.sqlite"}}) {
    StatusOr<ParsedCommandLine> parsed = Parse(args);
    ASSERT_TRUE(parsed.ok()) << args[0] << ": " << parsed.status().message();
    ASSERT_EQ(parsed->options.size(), 1u) << args[0];
    EXPECT_EQ(parsed->options[0].id, kOutput);
    EXPECT_EQ(parsed->options[0].value, "r.sqlite") << args[0];
    EXPECT_TRUE(parsed->operands.empty());
  }
}

TEST(OptionParser, KeepsTheSpellingForMessages) {
  StatusOr<ParsedCommandLine> parsed = Parse({"-u", "ms", "--normalized-time-unit=s"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->options[0].spelling, "-u");
  EXPECT_EQ(parsed->options[1].spelling, "--normalized-time-unit");
}

TEST(OptionParser, ValueMayBeEmptyOrLookLikeAnOption) {
  StatusOr<ParsedCommandLine> parsed = Parse({"--export-profile=", "-o", "-weird"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->options[0].value, "");
  EXPECT_EQ(parsed->options[1].value, "-weird");
}

TEST(OptionParser, StopsAtTheFirstOperandSoProgramOptionsAreNotOurs) {
  StatusOr<ParsedCommandLine> parsed = Parse({"--csv", "./app", "--csv", "-o", "x"});
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->options.size(), 1u);
  EXPECT_EQ(parsed->operands, (std::vector<std::string>{"./app", "--csv", "-o", "x"}));
}

TEST(OptionParser, DoubleDashEndsOptions) {
  StatusOr<ParsedCommandLine> parsed = Parse({"-f", "--", "--csv", "-f"});
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->options.size(), 1u);
  EXPECT_EQ(parsed->operands, (std::vector<std::string>{"--csv", "-f"}));
}

TEST(OptionParser, InterleavedModeTakesOptionsAfterOperands) {
  StatusOr<ParsedCommandLine> parsed = Parse(
      {"a.sqlite", "--csv", "b.sqlite", "-u", "ms", "--", "-c.sqlite"}, OperandMode::kInterleaved);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->options.size(), 2u);
  EXPECT_EQ(parsed->operands, (std::vector<std::string>{"a.sqlite", "b.sqlite", "-c.sqlite"}));
}

TEST(OptionParser, LoneDashIsAnOperand) {
  StatusOr<ParsedCommandLine> parsed = Parse({"-"}, OperandMode::kInterleaved);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->operands, std::vector<std::string>{"-"});
}

TEST(OptionParser, RejectsUnknownOptionsNamingThem) {
  StatusOr<ParsedCommandLine> parsed = Parse({"--print-everything", "./app"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "unknown option '--print-everything'");
  parsed = Parse({"-x"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "unknown option '-x'");
}

TEST(OptionParser, RejectsAValueOnAFlag) {
  StatusOr<ParsedCommandLine> parsed = Parse({"--csv=yes"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "option '--csv' takes no value");
}

TEST(OptionParser, RejectsBundledShortFlags) {
  // "-fo" must not silently mean "-f -o <next word>".
  StatusOr<ParsedCommandLine> parsed = Parse({"-fo", "x"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "unknown option '-fo'");
}

TEST(OptionParser, RejectsAMissingValue) {
  StatusOr<ParsedCommandLine> parsed = Parse({"--export-profile"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "option '--export-profile' needs a value <file>");
  parsed = Parse({"-u"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "option '-u' needs a value <unit>");
}

TEST(OptionParser, ParsesOnOff) {
  EXPECT_TRUE(ParseOnOff({0, "--demangling", "on"}).value());
  EXPECT_FALSE(ParseOnOff({0, "--demangling", "off"}).value());
  StatusOr<bool> bad = ParseOnOff({0, "--demangling", "yes"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "option '--demangling' expects 'on' or 'off', not 'yes'");
}

TEST(OptionParser, HelpListsEverySpellingAndDescription) {
  std::string help = FormatOptionHelp(kSpecs);
  EXPECT_NE(help.find("  -o, --export-profile <file>\n        report\n"), std::string::npos)
      << help;
  EXPECT_NE(help.find("      --csv\n        csv\n"), std::string::npos) << help;
}

TEST(OptionParser, ShortUsageKeepsTheSynopsisAndPointsToHelp) {
  EXPECT_EQ(ShortUsage("Usage: a\n       b\n\nLong text\n", "run"),
            "Usage: a\n       b\nTry 'gpuscope run --help'.\n");
  EXPECT_EQ(ShortUsage("Usage: a\n\nx\n", ""), "Usage: a\nTry 'gpuscope --help'.\n");
}

}  // namespace
}  // namespace gpuscope::cli

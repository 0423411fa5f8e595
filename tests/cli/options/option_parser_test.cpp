#include "cli/options/option_parser.h"

#include <gtest/gtest.h>

#include "cli/options/option_targets.h"

namespace gpuscope::cli {
namespace {

// TargetFields the declarations below fill.
struct TargetFields {
  std::string output;
  bool force = false;
  std::string unit;
  bool csv = false;
};

std::vector<OptionSpec> DeclaredSpecs(TargetFields& fields) {
  return {
      {"export-profile", 'o', "file", "report", StoreText(fields.output)},
      {"force-overwrite", 'f', "", "overwrite", SetFlag(fields.force)},
      {"normalized-time-unit", 'u', "unit", "unit", StoreText(fields.unit)},
      {"csv", 0, "", "csv", SetFlag(fields.csv)},
  };
}

StatusOr<ParsedCommandLine> SplitWords(std::vector<std::string> args,
                                       OperandMode mode = OperandMode::kStopAtFirstOperand) {
  static TargetFields unused;
  static const std::vector<OptionSpec> specs = DeclaredSpecs(unused);
  return ParseOptions(specs, args, mode);
}

TEST(OptionParser, AcceptsEveryValueSpelling) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--export-profile", "r.sqlite"},
                                             {"--export-profile=r.sqlite"},
                                             {"-o", "r.sqlite"},
                                             {"-or.sqlite"},
                                             {"-o=r.sqlite"}}) {
    StatusOr<ParsedCommandLine> parsed = SplitWords(args);
    ASSERT_TRUE(parsed.ok()) << args[0] << ": " << parsed.status().message();
    ASSERT_EQ(parsed->options.size(), 1u) << args[0];
    EXPECT_EQ(parsed->options[0].spec->long_name, "export-profile");
    EXPECT_EQ(parsed->options[0].option.value, "r.sqlite") << args[0];
    EXPECT_TRUE(parsed->operands.empty());
  }
}

TEST(OptionParser, KeepsTheSpellingForMessages) {
  StatusOr<ParsedCommandLine> parsed = SplitWords({"-u", "ms", "--normalized-time-unit=s"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->options[0].option.spelling, "-u");
  EXPECT_EQ(parsed->options[1].option.spelling, "--normalized-time-unit");
}

TEST(OptionParser, ValueMayBeEmptyOrLookLikeAnOption) {
  StatusOr<ParsedCommandLine> parsed = SplitWords({"--export-profile=", "-o", "-weird"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->options[0].option.value, "");
  EXPECT_EQ(parsed->options[1].option.value, "-weird");
}

TEST(OptionParser, StopsAtTheFirstOperandSoProgramOptionsAreNotOurs) {
  StatusOr<ParsedCommandLine> parsed = SplitWords({"--csv", "./app", "--csv", "-o", "x"});
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->options.size(), 1u);
  EXPECT_EQ(parsed->operands, (std::vector<std::string>{"./app", "--csv", "-o", "x"}));
}

TEST(OptionParser, DoubleDashEndsOptions) {
  StatusOr<ParsedCommandLine> parsed = SplitWords({"-f", "--", "--csv", "-f"});
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->options.size(), 1u);
  EXPECT_EQ(parsed->operands, (std::vector<std::string>{"--csv", "-f"}));
}

TEST(OptionParser, InterleavedModeTakesOptionsAfterOperands) {
  StatusOr<ParsedCommandLine> parsed = SplitWords(
      {"a.sqlite", "--csv", "b.sqlite", "-u", "ms", "--", "-c.sqlite"}, OperandMode::kInterleaved);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->options.size(), 2u);
  EXPECT_EQ(parsed->operands, (std::vector<std::string>{"a.sqlite", "b.sqlite", "-c.sqlite"}));
}

TEST(OptionParser, LoneDashIsAnOperand) {
  StatusOr<ParsedCommandLine> parsed = SplitWords({"-"}, OperandMode::kInterleaved);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->operands, std::vector<std::string>{"-"});
}

TEST(OptionParser, RejectsUnknownOptionsNamingThem) {
  StatusOr<ParsedCommandLine> parsed = SplitWords({"--print-everything", "./app"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "unknown option '--print-everything'");
  parsed = SplitWords({"-x"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "unknown option '-x'");
}

TEST(OptionParser, RejectsAValueOnAFlag) {
  StatusOr<ParsedCommandLine> parsed = SplitWords({"--csv=yes"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "option '--csv' takes no value");
}

TEST(OptionParser, RejectsBundledShortFlags) {
  // "-fo" must not silently mean "-f -o <next word>".
  StatusOr<ParsedCommandLine> parsed = SplitWords({"-fo", "x"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "unknown option '-fo'");
}

TEST(OptionParser, RejectsAMissingValue) {
  StatusOr<ParsedCommandLine> parsed = SplitWords({"--export-profile"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "option '--export-profile' needs a value <file>");
  parsed = SplitWords({"-u"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "option '-u' needs a value <unit>");
}

TEST(OptionParser, FillsEachTargetLaterOnesOverridingEarlierOnes) {
  TargetFields fields;
  StatusOr<std::vector<std::string>> operands = ParseCommandLine(
      DeclaredSpecs(fields),
      std::vector<std::string>{"-o", "a", "--csv", "-ob", "-u", "ms", "./app", "-f"},
      OperandMode::kStopAtFirstOperand);
  ASSERT_TRUE(operands.ok()) << operands.status().message();
  EXPECT_EQ(fields.output, "b");
  EXPECT_TRUE(fields.csv);
  EXPECT_EQ(fields.unit, "ms");
  EXPECT_FALSE(fields.force);  // "-f" is the program's
  EXPECT_EQ(*operands, (std::vector<std::string>{"./app", "-f"}));
}

TEST(OptionParser, ChecksEveryWordBeforeAnyValue) {
  TargetFields fields;
  std::vector<OptionSpec> specs = DeclaredSpecs(fields);
  specs[0].target = StoreNonEmptyText(fields.output, "a file name");
  StatusOr<std::vector<std::string>> operands = ParseCommandLine(
      specs, std::vector<std::string>{"-o", "", "--bogus"}, OperandMode::kInterleaved);
  ASSERT_FALSE(operands.ok());
  EXPECT_EQ(operands.status().message(), "unknown option '--bogus'");
  operands = ParseCommandLine(specs, std::vector<std::string>{"-o", ""}, OperandMode::kInterleaved);
  ASSERT_FALSE(operands.ok());
  EXPECT_EQ(operands.status().message(), "option '-o' needs a file name");
}

TEST(OptionParser, ACommandThatReadsReportsNeedsOneUnlessAskedForHelp) {
  bool help = false;
  std::vector<OptionSpec> specs = {{"help", 'h', "", "help", SetFlag(help)}};
  StatusOr<std::vector<std::string>> reports =
      ParseReportsCommandLine(specs, std::vector<std::string>{}, help);
  ASSERT_FALSE(reports.ok());
  EXPECT_EQ(reports.status().message(), "no report given");
  reports = ParseReportsCommandLine(specs, std::vector<std::string>{"-h"}, help);
  ASSERT_TRUE(reports.ok()) << reports.status().message();
  EXPECT_TRUE(reports->empty());
  reports = ParseReportsCommandLine(specs, std::vector<std::string>{"a.sqlite", "-h", "b"}, help);
  ASSERT_TRUE(reports.ok()) << reports.status().message();
  EXPECT_EQ(*reports, (std::vector<std::string>{"a.sqlite", "b"}));
}

TEST(OptionTargets, OnOff) {
  bool demangle = false;
  OptionTarget target = StoreOnOff(demangle);
  ASSERT_TRUE(target({"--demangling", "on"}).ok());
  EXPECT_TRUE(demangle);
  ASSERT_TRUE(target({"--demangling", "off"}).ok());
  EXPECT_FALSE(demangle);
  Status bad = target({"--demangling", "yes"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "option '--demangling' expects 'on' or 'off', not 'yes'");
}

TEST(OptionTargets, ChoiceNamesTheChoicesOnABadValue) {
  int page = 0;
  OptionTarget target = StoreChoice<int>(page, {{"details", 1}, {"raw", 2}});
  ASSERT_TRUE(target({"--page", "raw"}).ok());
  EXPECT_EQ(page, 2);
  Status bad = target({"--page", "source"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "option '--page' expects details, raw, not 'source'");
  EXPECT_EQ(page, 2);
}

TEST(OptionTargets, MarkingSaysTheOptionWasGiven) {
  bool given = false;
  std::vector<std::string> sections;
  OptionTarget target = Marking(given, AppendText(sections));
  ASSERT_TRUE(target({"--section", "a"}).ok());
  ASSERT_TRUE(target({"--section", "b"}).ok());
  EXPECT_TRUE(given);
  EXPECT_EQ(sections, (std::vector<std::string>{"a", "b"}));
}

TEST(OptionParser, HelpListsEverySpellingAndDescription) {
  TargetFields fields;
  std::string help = FormatOptionHelp(DeclaredSpecs(fields));
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

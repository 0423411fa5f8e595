// `gpuscope profile`'s options in Nsight Compute's spellings: each one sets what the
// command reads, listings need no program, and bad values are one-line usage errors.
#include "cli/options/profile_options.h"
#include "profile_option_parsing.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuscope::cli {
namespace {

using testing::ErrorOf;
using testing::Parse;

TEST(ProfileOptions, FormatCsvIsTheSameAsCsvAndJsonIsRefused) {
  for (const char* spelling : {"--csv", "--format=csv"}) {
    StatusOr<ProfileOptions> parsed = Parse({spelling, "--", "./app"});
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    EXPECT_TRUE(parsed->csv) << spelling;
  }
  StatusOr<ProfileOptions> column = Parse({"--csv", "--format", "column", "--", "./app"});
  ASSERT_TRUE(column.ok()) << column.status().message();
  EXPECT_FALSE(column->csv);  // the later one wins, as with every option
  EXPECT_EQ(ErrorOf({"--format", "json", "--", "./app"}),
            "option '--format' expects column or csv, not 'json'");
}

TEST(ProfileOptions, DefaultsForAPlainProgram) {
  StatusOr<ProfileOptions> parsed = Parse({"--", "./app", "--size", "3"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->program, (std::vector<std::string>{"./app", "--size", "3"}));
  EXPECT_EQ(parsed->filter.kernel_name, "");
  EXPECT_EQ(parsed->filter.kernel_name_base, "function");
  EXPECT_FALSE(parsed->filter.launch_skip.has_value());
  EXPECT_FALSE(parsed->filter.launch_count.has_value());
  EXPECT_FALSE(parsed->set.has_value());
  EXPECT_TRUE(parsed->sections.empty());
  EXPECT_TRUE(parsed->metrics.empty());
  EXPECT_EQ(parsed->replay_mode, model::ReplayMode::kKernel);
  EXPECT_EQ(parsed->cache_control, contract::CacheControl::kAll);  // as ncu: L2 flushed before each pass
  EXPECT_FALSE(parsed->csv);
  EXPECT_EQ(parsed->page, ProfilePage::kDetails);
  EXPECT_EQ(parsed->print_summary, ProfileSummary::kNone);
  EXPECT_EQ(parsed->traced.report_pattern, kDefaultProfileReportPattern);
  EXPECT_FALSE(parsed->traced.force_overwrite);
  EXPECT_EQ(parsed->traced.report_permissions, ReportPermissions::kPrivate);
  EXPECT_FALSE(parsed->traced.quiet);
}

// Guards each ncu spelling: short and long forms land in the field the command reads.
TEST(ProfileOptions, ParsesEveryNcuSpelling) {
  StatusOr<ProfileOptions> parsed = Parse({"-k",
                                           "regex:conv.*",
                                           "--kernel-name-base",
                                           "demangled",
                                           "-s",
                                           "3",
                                           "-c",
                                           "2",
                                           "--kernel-id",
                                           "1:7:vecAdd:4",
                                           "--devices",
                                           "0,1",
                                           "--set",
                                           "full",
                                           "--section",
                                           "SpeedOfLight",
                                           "--section",
                                           "Occupancy",
                                           "--metrics",
                                           "dram__bytes.sum,gpu__time_duration.sum",
                                           "--metrics",
                                           "sm__cycles_elapsed.avg",
                                           "--csv",
                                           "--page",
                                           "raw",
                                           "--print-summary",
                                           "none",
                                           "-o",
                                           "out_%p.sqlite",
                                           "-f",
                                           "-q",
                                           "--replay-mode",
                                           "application",
                                           "--cache-control",
                                           "none",
                                           "--",
                                           "python3",
                                           "app.py"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->filter.kernel_name, "regex:conv.*");
  EXPECT_EQ(parsed->filter.kernel_name_base, "demangled");
  EXPECT_EQ(parsed->filter.launch_skip, 3u);
  EXPECT_EQ(parsed->filter.launch_count, 2u);
  EXPECT_EQ(parsed->filter.kernel_id, "1:7:vecAdd:4");
  EXPECT_EQ(parsed->filter.devices, "0,1");
  EXPECT_EQ(parsed->set, "full");
  EXPECT_EQ(parsed->sections, (std::vector<std::string>{"SpeedOfLight", "Occupancy"}));
  EXPECT_EQ(parsed->metrics, (std::vector<std::string>{"dram__bytes.sum", "gpu__time_duration.sum",
                                                       "sm__cycles_elapsed.avg"}));
  EXPECT_TRUE(parsed->csv);
  EXPECT_EQ(parsed->page, ProfilePage::kRaw);
  EXPECT_EQ(parsed->print_summary, ProfileSummary::kNone);
  // per-kernel summarises the details page (in text or CSV): with --page raw it is refused.
  EXPECT_TRUE(ParseProfileOptions(std::vector<std::string>{"--csv", "--print-summary",
                                                           "per-kernel", "--", "app"})
                  .ok());
  EXPECT_FALSE(ParseProfileOptions(std::vector<std::string>{"--page", "raw", "--print-summary",
                                                            "per-kernel", "--", "app"})
                   .ok());
  StatusOr<ProfileOptions> summary = ParseProfileOptions(
      std::vector<std::string>{"--print-summary", "per-kernel", "--", "app"});
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ(summary->print_summary, ProfileSummary::kPerKernel);
  EXPECT_EQ(parsed->traced.report_pattern, "out_%p.sqlite");
  EXPECT_TRUE(parsed->traced.force_overwrite);
  EXPECT_TRUE(parsed->traced.quiet);
  EXPECT_EQ(parsed->replay_mode, model::ReplayMode::kApplication);
  EXPECT_EQ(parsed->cache_control, contract::CacheControl::kNone);
  EXPECT_EQ(parsed->program, (std::vector<std::string>{"python3", "app.py"}));

  parsed = Parse({"--kernel-name", "vecAdd", "--launch-skip", "0", "--launch-count", "1",
                  "--export", "r.sqlite", "--force-overwrite", "--report-permissions=umask",
                  "--quiet", "--page", "details", "./app"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->filter.kernel_name, "vecAdd");
  EXPECT_EQ(parsed->filter.launch_skip, 0u);
  EXPECT_EQ(parsed->filter.launch_count, 1u);
  EXPECT_EQ(parsed->traced.report_pattern, "r.sqlite");
  EXPECT_TRUE(parsed->traced.force_overwrite);
  EXPECT_TRUE(parsed->traced.quiet);
  EXPECT_EQ(parsed->traced.report_permissions, ReportPermissions::kUmask);
  EXPECT_EQ(parsed->page, ProfilePage::kDetails);
  EXPECT_EQ(parsed->program, std::vector<std::string>{"./app"});
}

// Guards operand handling: the program's own options are not gpuscope's.
TEST(ProfileOptions, OptionsAfterTheProgramBelongToIt) {
  StatusOr<ProfileOptions> parsed = Parse({"-c", "1", "./app", "-c", "0", "--csv"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->filter.launch_count, 1u);
  EXPECT_FALSE(parsed->csv);
  EXPECT_EQ(parsed->program, (std::vector<std::string>{"./app", "-c", "0", "--csv"}));
}

TEST(ProfileOptions, EmptyMetricListItemsAreIgnored) {
  StatusOr<ProfileOptions> parsed = Parse({"--metrics", ",a,,b,", "./app"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->metrics, (std::vector<std::string>{"a", "b"}));
}

// Guards the "no GPU, no program" listings: they must not demand a program.
TEST(ProfileOptions, ListingsNeedNoProgram) {
  StatusOr<ProfileOptions> sets = Parse({"--list-sets"});
  ASSERT_TRUE(sets.ok()) << sets.status().message();
  EXPECT_TRUE(sets->list_sets);
  EXPECT_TRUE(sets->program.empty());

  StatusOr<ProfileOptions> sections = Parse({"--list-sections"});
  ASSERT_TRUE(sections.ok()) << sections.status().message();
  EXPECT_TRUE(sections->list_sections);

  StatusOr<ProfileOptions> query = Parse({"--query-metrics", "--chip", "GH100"});
  ASSERT_TRUE(query.ok()) << query.status().message();
  EXPECT_TRUE(query->query_metrics);
  EXPECT_EQ(query->chip, "GH100");

  StatusOr<ProfileOptions> help = Parse({"-h"});
  ASSERT_TRUE(help.ok()) << help.status().message();
  EXPECT_TRUE(help->help);
}

// Guards the usage errors: rejected before the program starts, one line, naming the cause.
TEST(ProfileOptions, BadValuesAreOneLineErrors) {
  EXPECT_NE(ErrorOf({"-k", "regex:conv(", "./app"}).find("conv("), std::string::npos);
  EXPECT_NE(ErrorOf({"-c", "0", "./app"}).find("at least 1"), std::string::npos);
  EXPECT_NE(ErrorOf({"-c", "two", "./app"}).find("two"), std::string::npos);
  EXPECT_NE(ErrorOf({"-s", "-1", "./app"}).find("-1"), std::string::npos);
  EXPECT_NE(ErrorOf({"--page", "x", "./app"}).find("'x'"), std::string::npos);
  EXPECT_NE(ErrorOf({"--print-summary", "per-gpu", "./app"}).find("per-gpu"), std::string::npos);
  EXPECT_NE(ErrorOf({"--replay-mode", "range", "./app"}).find("range"), std::string::npos);
  EXPECT_NE(ErrorOf({"--kernel-name-base", "short", "./app"}).find("short"), std::string::npos);
  EXPECT_NE(ErrorOf({"--devices", "gpu0", "./app"}).find("gpu0"), std::string::npos);
  EXPECT_FALSE(ErrorOf({"--kernel-id", "1:2", "./app"}).empty());
  EXPECT_FALSE(ErrorOf({"--no-such-option", "./app"}).empty());
  // As `gpuscope run` (the traced-run options are declared once for both).
  EXPECT_EQ(ErrorOf({"-o", "", "./app"}), "option '-o' needs a file name");
  EXPECT_EQ(ErrorOf({"--export=", "./app"}), "option '--export' needs a file name");

  const std::string cache = ErrorOf({"--cache-control", "some", "./app"});
  EXPECT_NE(cache.find("all, none"), std::string::npos) << cache;
  StatusOr<ProfileOptions> flushed = Parse({"--cache-control", "all", "./app"});
  ASSERT_TRUE(flushed.ok()) << flushed.status().message();
  EXPECT_EQ(flushed->cache_control, contract::CacheControl::kAll);

  // --replay-no-restore: kernel replay only (application replay has no restore to skip).
  StatusOr<ProfileOptions> no_restore = Parse({"--replay-no-restore", "./app"});
  ASSERT_TRUE(no_restore.ok()) << no_restore.status().message();
  EXPECT_TRUE(no_restore->replay_no_restore);
  EXPECT_FALSE(Parse({"./app"})->replay_no_restore);
  const std::string app_replay =
      ErrorOf({"--replay-no-restore", "--replay-mode", "application", "-c", "1", "./app"});
  EXPECT_NE(app_replay.find("kernel replay only"), std::string::npos) << app_replay;

  const std::string missing = ErrorOf({"--set", "full"});
  EXPECT_NE(missing.find("no program"), std::string::npos) << missing;
  EXPECT_NE(ErrorOf({}).find("no program"), std::string::npos);
}

TEST(ProfileOptions, UsageNamesTheNcuOptions) {
  const std::string usage = ProfileUsage();
  for (const char* option :
       {"--kernel-name", "--launch-skip", "--launch-count", "--kernel-id", "--set", "--section",
        "--metrics", "--list-sets", "--query-metrics", "--print-summary", "--cache-control",
        "--replay-no-restore"}) {
    EXPECT_NE(usage.find(option), std::string::npos) << option;
  }
}

}  // namespace
}  // namespace gpuscope::cli

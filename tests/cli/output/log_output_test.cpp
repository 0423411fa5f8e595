#include "cli/output/log_output.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

PatternContext Context(unsigned pid) {
  PatternContext context;
  context.pid = pid;
  context.hostname = "node7";
  context.getenv = [](const char* name) -> const char* {
    return std::string_view(name) == "OMPI_COMM_WORLD_RANK" ? "3" : nullptr;
  };
  return context;
}

TEST(LogTarget, DefaultsToStderr) {
  StatusOr<LogTarget> target = ResolveLogTarget(std::nullopt, Context(42));
  ASSERT_TRUE(target.ok());
  EXPECT_EQ(target->kind, LogTarget::Kind::kStderr);
}

TEST(LogTarget, PercentOneIsStdoutAndPercentTwoIsStderr) {
  EXPECT_EQ(ResolveLogTarget("%1", Context(42))->kind, LogTarget::Kind::kStdout);
  EXPECT_EQ(ResolveLogTarget("%2", Context(42))->kind, LogTarget::Kind::kStderr);
}

TEST(LogTarget, ExpandsEveryMacroWithTheProgramsPid) {
  StatusOr<LogTarget> target =
      ResolveLogTarget("log.%h.%p.rank%q{OMPI_COMM_WORLD_RANK}.100%%", Context(4242));
  ASSERT_TRUE(target.ok()) << target.status().message();
  EXPECT_EQ(target->kind, LogTarget::Kind::kFile);
  EXPECT_EQ(target->path, "log.node7.4242.rank3.100%");
}

TEST(LogTarget, PercentOneInsideANameIsAnError) {
  // nvprof's %1 / %2 mean stdout / stderr only as the whole name.
  StatusOr<LogTarget> target = ResolveLogTarget("out%1.txt", Context(1));
  ASSERT_FALSE(target.ok());
  EXPECT_NE(target.status().message().find("unknown macro %1"), std::string::npos);
}

TEST(LogTarget, UnsetEnvironmentVariableIsAnError) {
  StatusOr<LogTarget> target = ResolveLogTarget("log%q{NOT_SET_ANYWHERE}", Context(1));
  ASSERT_FALSE(target.ok());
  EXPECT_NE(target.status().message().find("NOT_SET_ANYWHERE is not set"), std::string::npos);
}

TEST(LogOutput, WritesPrefixedLinesAndTablesToTheFile) {
  testing::TempDir dir;
  StatusOr<std::unique_ptr<LogOutput>> log =
      LogOutput::Open({LogTarget::Kind::kFile, dir.File("gpuscope.log")}, {}, false);
  ASSERT_TRUE(log.ok()) << log.status().message();
  (*log)->Line(31134, "Profiling application: ./sample");
  (*log)->stream() << "            Type  Time(%)\n";
  (*log)->Line(31134, "Report: r.sqlite");
  log->reset();
  EXPECT_EQ(testing::ReadWholeFile(dir.File("gpuscope.log")),
            "==31134== Profiling application: ./sample\n"
            "            Type  Time(%)\n"
            "==31134== Report: r.sqlite\n");
}

// An existing log is replaced only when asked (-f), as every output of gpuscope.
TEST(LogOutput, ReplacesAnExistingLogOnlyWhenForced) {
  testing::TempDir dir;
  dir.Write("gpuscope.log", "old contents\n");
  StatusOr<std::unique_ptr<LogOutput>> refused =
      LogOutput::Open({LogTarget::Kind::kFile, dir.File("gpuscope.log")}, {}, false);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            dir.File("gpuscope.log") + " already exists (use -f to overwrite it)");
  EXPECT_EQ(testing::ReadWholeFile(dir.File("gpuscope.log")), "old contents\n");
  StatusOr<std::unique_ptr<LogOutput>> log =
      LogOutput::Open({LogTarget::Kind::kFile, dir.File("gpuscope.log")}, {}, true);
  ASSERT_TRUE(log.ok());
  (*log)->Line(1, "new");
  log->reset();
  EXPECT_EQ(testing::ReadWholeFile(dir.File("gpuscope.log")), "==1== new\n");
}

TEST(LogOutput, UnwritableFileIsAnError) {
  testing::TempDir dir;
  StatusOr<std::unique_ptr<LogOutput>> log =
      LogOutput::Open({LogTarget::Kind::kFile, dir.File("missing/gpuscope.log")}, {}, false);
  ASSERT_FALSE(log.ok());
  EXPECT_NE(log.status().message().find("cannot write log file"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::cli

#include "cli/program_outcome.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

namespace gpuscope::cli {
namespace {

TEST(ProgramOutcome, CleanExitSaysNothingAndReturnsZero) {
  ProgramOutcome outcome = OutcomeFromWaitStatus(W_EXITCODE(0, 0));
  EXPECT_EQ(ExitCodeFor(outcome), 0);
  EXPECT_EQ(DescribeOutcome(outcome), "");
}

TEST(ProgramOutcome, ExitCodePassesThrough) {
  ProgramOutcome outcome = OutcomeFromWaitStatus(W_EXITCODE(3, 0));
  EXPECT_EQ(ExitCodeFor(outcome), 3);
  EXPECT_EQ(DescribeOutcome(outcome), "Program exited with code 3");
}

TEST(ProgramOutcome, KilledProgramGives128PlusSignal) {
  ProgramOutcome outcome = OutcomeFromWaitStatus(W_EXITCODE(0, SIGKILL));
  EXPECT_TRUE(outcome.killed_by_signal);
  EXPECT_EQ(ExitCodeFor(outcome), 137);
  EXPECT_EQ(DescribeOutcome(outcome), "Program terminated by signal 9 (SIGKILL)");
  outcome = OutcomeFromWaitStatus(W_EXITCODE(0, SIGSEGV) | WCOREFLAG);
  EXPECT_EQ(ExitCodeFor(outcome), 139);
  EXPECT_EQ(DescribeOutcome(outcome), "Program terminated by signal 11 (SIGSEGV)");
}

TEST(ProgramOutcome, UnknownStatusIsGpuscopesFailure) {
  ProgramOutcome outcome;
  outcome.status_unknown = true;
  EXPECT_EQ(ExitCodeFor(outcome), 1);
  EXPECT_NE(DescribeOutcome(outcome), "");
}

TEST(ProgramOutcome, SignalNames) {
  EXPECT_EQ(SignalName(SIGTERM), "SIGTERM");
  EXPECT_EQ(SignalName(SIGABRT), "SIGABRT");
  EXPECT_EQ(SignalName(SIGRTMIN + 1), "signal " + std::to_string(SIGRTMIN + 1));
}

}  // namespace
}  // namespace gpuscope::cli

#include "cli/launch/program_outcome.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

namespace gpuscope::cli {
namespace {

// `profile -- /bin/true` said ==ERROR== (no report was written) and exited 0.
TEST(ProgramOutcome, AnErrorAfterACleanRunIsNotASuccess) {
  ProgramOutcome clean = OutcomeFromWaitStatus(0);
  EXPECT_EQ(ExitCodeAfterResults(clean, /*gpuscope_error=*/false), 0);
  EXPECT_EQ(ExitCodeAfterResults(clean, /*gpuscope_error=*/true), 1);
  // The program's own failure says more than gpuscope's and is kept.
  ProgramOutcome failed = OutcomeFromWaitStatus(3 << 8);
  EXPECT_EQ(ExitCodeAfterResults(failed, true), 3);
  ProgramOutcome killed = OutcomeFromWaitStatus(SIGKILL);
  EXPECT_EQ(ExitCodeAfterResults(killed, true), 128 + SIGKILL);
}

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

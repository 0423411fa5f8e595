// The fuzz test's own machinery: the verdicts on real processes (a signal, a hang, a sanitizer
// report, garbled JSON, an error of two lines are failures; output and a one-line error are
// not), reproducible mutants, and the driver keeping a failing mutant with the command that
// replays it.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "child_process.h"
#include "counter_image_mutations.h"
#include "mutant.h"
#include "outcome.h"
#include "random_source.h"
#include "sql_mutations.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::fuzz {
namespace {

using store::testing::ScratchDir;

const std::string kSeedReport = GPUSCOPE_TEST_DATA_DIR "/reports/h100_add.sqlite";

Ended Shell(const ScratchDir& dir, const std::string& script,
            std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  return RunBounded({"/bin/sh", "-c", script}, timeout, dir.path());
}

TEST(FuzzVerdict, ASignalIsAFailure) {
  ScratchDir dir;
  Outcome outcome = Classify(Shell(dir, "kill -SEGV $$"), {});
  EXPECT_EQ(outcome.verdict, Verdict::kFailure);
  EXPECT_EQ(outcome.reason, "killed by signal 11");
}

TEST(FuzzVerdict, AHangIsKilledAtTheTimeoutAndIsAFailure) {
  ScratchDir dir;
  auto start = std::chrono::steady_clock::now();
  Ended ended = Shell(dir, "sleep 20", std::chrono::milliseconds(300));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(ended.timed_out);
  EXPECT_EQ(Classify(ended, {}).verdict, Verdict::kFailure);
}

TEST(FuzzVerdict, ASanitizerReportIsAFailureWhateverTheExit) {
  ScratchDir dir;
  Outcome outcome = Classify(
      Shell(dir, "echo '==9==ERROR: AddressSanitizer: heap-use-after-free' >&2; "
                 "echo 'gpuscope: error: cannot read report' >&2; exit 1"),
      {});
  EXPECT_EQ(outcome.verdict, Verdict::kFailure);
  EXPECT_EQ(outcome.reason, "sanitizer report on stderr");
  EXPECT_EQ(Classify(Shell(dir, "echo 'x.cpp:3:5: runtime error: signed integer overflow' >&2"), {})
                .verdict,
            Verdict::kFailure);
}

// ASan stops a program that loads CUPTI's host library; that is counted apart, not passed.
TEST(FuzzVerdict, CuptiRefusedByTheSanitizerRuntimeIsNotJudged) {
  ScratchDir dir;
  const std::string refusal =
      "echo '==7==You are trying to dlopen a libnvperf_host.so shared library with RTLD_DEEPBIND "
      "flag which is incompatible with sanitizer runtime (see ...)' >&2; ";
  EXPECT_EQ(Classify(Shell(dir, refusal + "exit 1"), {}).verdict, Verdict::kNotUnderSanitizer);
  // Only as the reason it stopped: a crash after it is still a crash.
  EXPECT_EQ(Classify(Shell(dir, refusal + "kill -SEGV $$"), {}).verdict, Verdict::kFailure);
}

TEST(FuzzVerdict, ExitZeroWithGarbledJsonIsAFailure) {
  ScratchDir dir;
  Expected json{OutputKind::kStdoutJson, ""};
  Outcome garbled = Classify(Shell(dir, "printf '{\"pid\":,{\"ph\":\"M\"}'"), json);
  EXPECT_EQ(garbled.verdict, Verdict::kFailure);
  EXPECT_EQ(garbled.reason.rfind("exit 0 with invalid JSON on stdout", 0), 0u) << garbled.reason;
  EXPECT_EQ(Classify(Shell(dir, "printf '{\"pid\":1}'"), json).verdict, Verdict::kOutput);
}

TEST(FuzzVerdict, AnHtmlPageCutShortIsAFailure) {
  ScratchDir dir;
  Expected html{OutputKind::kHtmlFile, dir.File("r.html")};
  EXPECT_EQ(Classify(Shell(dir, "printf '<html><body>' > " + html.output_path), html).verdict,
            Verdict::kFailure);
  EXPECT_EQ(Classify(Shell(dir, "printf '<html></html>\\n' > " + html.output_path), html).verdict,
            Verdict::kOutput);
}

TEST(FuzzVerdict, AnErrorIsCleanOnlyAsOneLastLine) {
  ScratchDir dir;
  EXPECT_EQ(Classify(Shell(dir, "echo 'gpuscope: error: no such table: kernels' >&2; exit 1"), {})
                .verdict,
            Verdict::kCleanError);
  EXPECT_EQ(Classify(Shell(dir, "echo 'gpuscope: warning: 3 rows skipped' >&2; "
                                "echo 'gpuscope: error: no such table: kernels' >&2; exit 1"),
                     {})
                .verdict,
            Verdict::kCleanError);
  // A message broken over two lines, or none at all.
  EXPECT_EQ(Classify(Shell(dir, "printf 'gpuscope: error: malformed (\"x\\ny\")\\n' >&2; exit 1"), {})
                .verdict,
            Verdict::kFailure);
  EXPECT_EQ(Classify(Shell(dir, "exit 1"), {}).verdict, Verdict::kFailure);
}

TEST(FuzzMutants, OneSeedAndCaseGiveOneMutant) {
  ScratchDir dir;
  for (std::uint64_t index : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u}) {
    SeededRandom first = CaseRandom(14, index), second = CaseRandom(14, index);
    std::vector<std::string> steps = WriteMutant(kSeedReport, dir.File("a.sqlite"), first);
    EXPECT_EQ(WriteMutant(kSeedReport, dir.File("b.sqlite"), second), steps);
    EXPECT_FALSE(steps.empty()) << index;
    EXPECT_EQ(ReadWholeFile(dir.File("a.sqlite")), ReadWholeFile(dir.File("b.sqlite"))) << index;
    EXPECT_NE(ReadWholeFile(dir.File("a.sqlite")), ReadWholeFile(kSeedReport)) << index;
  }
}

TEST(FuzzMutants, AnSqlMutationChangesTheReportAsItSays) {
  ScratchDir dir;
  std::string path = dir.File("m.sqlite");
  std::filesystem::copy_file(kSeedReport, path);
  SeededRandom random(3);
  std::optional<std::string> sql = MutateSql(path, random);
  ASSERT_TRUE(sql.has_value());
  EXPECT_NE(ReadWholeFile(path), ReadWholeFile(kSeedReport)) << *sql;
  // Replaying the printed SQL on a fresh copy gives the same database content.
  std::string replay = dir.File("replay.sqlite");
  std::filesystem::copy_file(kSeedReport, replay);
  Ended replayed = RunBounded({"/bin/sh", "-c",
                               "sqlite3 " + replay + " 'PRAGMA legacy_alter_table = ON' " +
                                   "\"$0\" && sqlite3 " + replay + " .dump && sqlite3 " + path +
                                   " .dump",
                               *sql},
                              std::chrono::seconds(20), dir.path());
  ASSERT_EQ(replayed.exit_code, 0) << replayed.err;
  std::size_t half = replayed.out.size() / 2;
  EXPECT_EQ(replayed.out.substr(0, half), replayed.out.substr(half));
}

// The image is changed inside its compression (zlib's checksum would refuse damage outside),
// and the stored values are gone, so that a reader hands the damaged image to CUPTI.
TEST(FuzzMutants, ACounterImageMutationReachesTheEvaluation) {
  ScratchDir dir;
  std::string path = dir.File("profile.sqlite");
  std::filesystem::copy_file(GPUSCOPE_TEST_DATA_DIR "/reports/h100_metrics_full.sqlite", path);
  auto query = [&](const std::string& sql) {
    return RunBounded({"/usr/bin/sqlite3", path, sql}, std::chrono::seconds(20), dir.path()).out;
  };
  std::string before = query("SELECT id, hex(counter_data) FROM profiled_kernels ORDER BY id");
  ASSERT_NE(query("SELECT count(*) FROM kernel_metrics"), "0\n");
  SeededRandom random(11);
  std::optional<std::string> what = MutateCounterImage(path, random);
  ASSERT_TRUE(what.has_value());
  EXPECT_EQ(what->rfind("counter image of profiled kernel ", 0), 0u) << *what;
  EXPECT_EQ(query("SELECT count(*) FROM kernel_metrics"), "0\n");
  EXPECT_NE(query("SELECT id, hex(counter_data) FROM profiled_kernels ORDER BY id"), before);
  // A trace report has no image to damage.
  std::string trace = dir.File("trace.sqlite");
  std::filesystem::copy_file(kSeedReport, trace);
  EXPECT_FALSE(MutateCounterImage(trace, random).has_value());
}

// A "gpuscope" in `dir` that crashes on every command.
std::string CrashingGpuscope(const ScratchDir& dir) {
  std::string fake = dir.File("gpuscope");
  std::ofstream(fake) << "#!/bin/sh\nkill -SEGV $$\n";
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  return fake;
}

// Every command crashes: the driver fails, keeps the mutant and says how to replay the case
// and the command.
TEST(FuzzDriver, KeepsAFailingMutantAndPrintsHowToReplayIt) {
  ScratchDir dir;
  std::string fake = CrashingGpuscope(dir);
  Ended ended = RunBounded({GPUSCOPE_BINARY_DIR "/bin/reader_fuzz", "--gpuscope", fake, "--seed",
                            "5", "--case", "3", "--timeout", "10", "--keep", dir.File("kept"),
                            kSeedReport},
                           std::chrono::seconds(120), dir.path());
  EXPECT_EQ(ended.exit_code, 1) << ended.out << ended.err;
  EXPECT_NE(ended.out.find("FAILURE case 3 (seed 5): killed by signal 11"), std::string::npos)
      << ended.out;
  std::string kept = dir.File("kept") + "/seed5-case3.sqlite";
  EXPECT_TRUE(std::filesystem::exists(kept));
  EXPECT_NE(ended.out.find("run it again: " + fake + " stats " + kept + "\n"), std::string::npos)
      << ended.out;
  EXPECT_NE(ended.out.find("--seed 5 --case 3 " + kSeedReport), std::string::npos) << ended.out;
  EXPECT_NE(ended.out.find("1 cases, 20 runs"), std::string::npos) << ended.out;  // 19 commands + view
}

// Two workers share five cases: every case runs once, in one of them, and the summary adds up
// what both found (the same "gpuscope" crashing on every command).
TEST(FuzzDriver, WorkersShareTheCasesAndAddUpWhatTheyFound) {
  ScratchDir dir;
  std::string fake = CrashingGpuscope(dir);
  Ended ended = RunBounded({GPUSCOPE_BINARY_DIR "/bin/reader_fuzz", "--gpuscope", fake, "--seed",
                            "5", "--cases", "5", "--commands-per-case", "2", "--jobs", "2",
                            "--timeout", "10", "--keep", dir.File("kept"), kSeedReport},
                           std::chrono::seconds(120), dir.path());
  EXPECT_EQ(ended.exit_code, 1) << ended.out << ended.err;
  EXPECT_NE(ended.out.find(", 2 workers,"), std::string::npos) << ended.out;
  for (int index = 0; index < 5; ++index) {
    std::string failure = "FAILURE case " + std::to_string(index) + " (seed 5)";
    EXPECT_NE(ended.out.find(failure), std::string::npos) << failure << "\n" << ended.out;
    EXPECT_TRUE(std::filesystem::exists(dir.File("kept") + "/seed5-case" + std::to_string(index) +
                                        ".sqlite"));
  }
  EXPECT_NE(ended.out.find("5 cases, 10 runs in "), std::string::npos) << ended.out;
  EXPECT_NE(ended.out.find("10 failures in 5 cases (seed 5)"), std::string::npos) << ended.out;
}

}  // namespace
}  // namespace gpuscope::fuzz

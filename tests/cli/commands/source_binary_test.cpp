// `gpuscope source` and `gpuscope stats --page source`, run as a user would, on a report built
// from the probe's recorded data (probe.cubin and ncu's values of k_fp64).
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "../../support/gpuscope_process.h"
#include "store/counter_data_codec.h"
#include "store/testing/report_builder.h"
#include "store/testing/sass_fixtures.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::cli {
namespace {

using testing::RunGpuscope;

const std::string kData = std::string(GPUSCOPE_TEST_DATA_DIR) + "/sass/";
constexpr const char* kFp64 = "_Z6k_fp64PKfPfi";

// The CSV contract other tools rely on: keep in step with render/source_page.h.
constexpr const char* kCsvHeader =
    "\"ID\",\"Kernel Name\",\"Function\",\"Address\",\"Source\",\"File\",\"Line\","
    "\"Instructions Executed\",\"Thread Instructions Executed\","
    "\"Predicated-On Thread Instructions Executed\",\"Divergent Branches\","
    "\"L2 Theoretical Sectors Global\",\"L2 Theoretical Sectors Global Ideal\","
    "\"L2 Theoretical Sectors Global Excessive\",\"L1 Wavefronts Shared\","
    "\"L1 Wavefronts Shared Ideal\",\"L1 Wavefronts Shared Excessive\","
    "\"Warp Stall Sampling (All Samples)\",\"Warp Stall Sampling (Not-issued Samples)\","
    "\"stall_barrier\",\"stall_branch_resolving\",\"stall_dispatch\",\"stall_drain\","
    "\"stall_imc\",\"stall_lg\",\"stall_long_sb\",\"stall_math\",\"stall_membar\",\"stall_mio\","
    "\"stall_misc\",\"stall_no_inst\",\"stall_not_selected\",\"stall_selected\","
    "\"stall_short_sb\",\"stall_sleep\",\"stall_tex\",\"stall_wait\","
    "\"stall_barrier (Not Issued)\",\"stall_branch_resolving (Not Issued)\","
    "\"stall_dispatch (Not Issued)\",\"stall_drain (Not Issued)\",\"stall_imc (Not Issued)\","
    "\"stall_lg (Not Issued)\",\"stall_long_sb (Not Issued)\",\"stall_math (Not Issued)\","
    "\"stall_membar (Not Issued)\",\"stall_mio (Not Issued)\",\"stall_misc (Not Issued)\","
    "\"stall_no_inst (Not Issued)\",\"stall_not_selected (Not Issued)\","
    "\"stall_selected (Not Issued)\",\"stall_short_sb (Not Issued)\","
    "\"stall_sleeping (Not Issued)\",\"stall_tex (Not Issued)\",\"stall_wait (Not Issued)\"";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class SourceCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ncu_ = store::testing::LoadNcuSourceCsv(kData + "probe_ncu_sass.csv", kFp64, 57506000);
    cubin_ = store::testing::ReadBinaryFile(kData + "probe.cubin");
    report_ = dir_.File("probe.sqlite");
    store::testing::ReportBuilder builder(report_);
    store::testing::SourceLaunchSpec spec;
    spec.mangled_name = kFp64;
    spec.values = ncu_.values;
    spec.cubins.push_back({57506000, cubin_});
    builder.ProfiledSourceLaunch(spec);
    store::testing::SourceLaunchSpec plain;
    plain.mangled_name = "_Z4workv";
    plain.profile_index = 1;
    plain.requested = false;
    builder.ProfiledSourceLaunch(plain);
    ASSERT_TRUE(builder.Close().ok());
  }
  // Without: no GPUSCOPE_NVDISASM, nothing on PATH or in CUDA_HOME.
  testing::Finished Run(std::vector<std::string> args, bool with_nvdisasm = true) {
    if (with_nvdisasm)
      return RunGpuscope(args, {{"GPUSCOPE_NVDISASM", kData + "fake_nvdisasm.sh"}});
    return RunGpuscope(args, {{"GPUSCOPE_NVDISASM", ""}, {"CUDA_HOME", ""}, {"PATH", dir_.path()}});
  }

  store::testing::ScratchDir dir_;
  store::testing::NcuSourceKernel ncu_;
  std::vector<std::uint8_t> cubin_;
  std::string report_;
};

TEST_F(SourceCommandTest, SassCsvIsOneRowPerInstruction) {
  testing::Finished run = Run({"source", report_, "-k", "k_fp64", "--csv"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<std::string> lines = Lines(run.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], kCsvHeader);
  ASSERT_EQ(lines.size(), 1 + ncu_.offsets.size());
  EXPECT_EQ(lines[1].rfind("\"0\",\"k_fp64(float const*, float*, int)\",\"_Z6k_fp64PKfPfi\","
                           "\"0x0000\",\"LDC R1, c[0x0][0x28]\","
                           "\"/work/main/.carry/probe/source_probe.cu\",\"20\",\"32768\","
                           "\"1048576\",\"1048576\",",
                           0),
            0u)
      << lines[1];
}

TEST_F(SourceCommandTest, CudaRowsAreLinesAndCudaSassInterleaves) {
  testing::Finished cuda = Run({"source", report_, "-k", "k_fp64", "--csv", "--print-source",
                                "cuda", "--sort", "Instructions Executed"});
  ASSERT_EQ(cuda.exit_code, 0) << cuda.err;
  std::vector<std::string> lines = Lines(cuda.out);
  ASSERT_GT(lines.size(), 2u);
  // Hottest first: line 22 (28,246,016 instructions, as ncu's cuda,sass page says).
  EXPECT_EQ(
      lines[1].rfind("\"0\",\"k_fp64(float const*, float*, int)\",\"_Z6k_fp64PKfPfi\",\"\",", 0),
      0u)
      << lines[1];  // a line row: no address
  EXPECT_NE(lines[1].find("\"/work/main/.carry/probe/source_probe.cu\",\"22\",\"28246016\","),
            std::string::npos)
      << lines[1];
  testing::Finished both =
      Run({"source", report_, "-k", "k_fp64", "--csv", "--print-source", "cuda,sass"});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_EQ(Lines(both.out).size(), lines.size() + ncu_.offsets.size());
}

TEST_F(SourceCommandTest, StatsPageSourceIsTheSamePage) {
  testing::Finished source = Run({"source", report_, "--print-source", "cuda,sass"});
  testing::Finished stats =
      Run({"stats", report_, "--page", "source", "--print-source", "cuda,sass"});
  ASSERT_EQ(source.exit_code, 0) << source.err;
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_EQ(source.out, stats.out);
  EXPECT_NE(source.out.find("LDC R1, c[0x0][0x28]"), std::string::npos);
  // The launch profiled without source counters says why it has none.
  EXPECT_NE(source.out.find("profile with --set full or --section SourceCounters"),
            std::string::npos);
}

TEST_F(SourceCommandTest, WithoutNvdisasmSaysSoOnce) {
  if (::access("/usr/local/cuda/bin/nvdisasm", X_OK) == 0) GTEST_SKIP() << "the toolkit is here";
  testing::Finished run = Run({"source", report_, "-k", "k_fp64"}, /*with_nvdisasm=*/false);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("SASS text needs nvdisasm"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("SASS text needs nvdisasm"), run.err.rfind("SASS text needs nvdisasm"));
  EXPECT_NE(run.out.find("(no SASS text)"), std::string::npos);
}

TEST_F(SourceCommandTest, BadInputsGiveOneLineErrors) {
  testing::Finished unknown = Run({"source", report_, "-k", "no_such_kernel"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_EQ(Lines(unknown.err).size(), 1u) << unknown.err;
  EXPECT_EQ(unknown.err.rfind("gpuscope: error: no profiled kernel matches", 0), 0u) << unknown.err;

  testing::Finished sort = Run({"source", report_, "--sort", "bogus"});
  EXPECT_EQ(sort.exit_code, 2);
  EXPECT_EQ(sort.err.rfind("gpuscope: error: option '--sort'", 0), 0u) << sort.err;

  testing::Finished print = Run({"source", report_, "--print-source", "ptx"});
  EXPECT_EQ(print.exit_code, 2);

  testing::Finished missing = Run({"source", dir_.File("missing.sqlite")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err.rfind("gpuscope: error: ", 0), 0u);

  // The source page's options need it, and it has no sections.
  testing::Finished stats_sort = Run({"stats", report_, "--sort", "stall_long_sb"});
  EXPECT_EQ(stats_sort.exit_code, 2);
  EXPECT_NE(stats_sort.err.find("need --page source"), std::string::npos) << stats_sort.err;
  testing::Finished stats_print =
      Run({"stats", report_, "--page", "details", "--print-source", "cuda"});
  EXPECT_EQ(stats_print.exit_code, 2);
  testing::Finished stats_section =
      Run({"stats", report_, "--page", "source", "--section", "SpeedOfLight"});
  EXPECT_EQ(stats_section.exit_code, 2);
  testing::Finished stats_page = Run({"stats", report_, "--page", "sauce"});
  EXPECT_EQ(stats_page.exit_code, 2);
  EXPECT_NE(stats_page.err.find("details, raw or source"), std::string::npos) << stats_page.err;
}

TEST_F(SourceCommandTest, ATraceOnlyReportHasNoProfiledKernels) {
  const std::string path = dir_.File("trace.sqlite");
  store::testing::ReportBuilder builder(path);
  builder.Kernel(0, 1000);
  ASSERT_TRUE(builder.Close().ok());
  testing::Finished run = Run({"source", path});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("no profiled kernels"), std::string::npos) << run.err;
}

// A report recorded before source counters existed (no source tables at all) reads as "no
// source data" for each of its profiled kernels.
TEST_F(SourceCommandTest, AReportWithoutSourceTablesSaysWhyPerKernel) {
  const std::string path = dir_.File("old.sqlite");
  std::filesystem::copy_file(
      std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/legacy/h200_metrics_full_2026-11-21.sqlite",
      path);
  testing::Finished run = Run({"source", path});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("No source data: no source counters were collected for this launch; "
                         "profile with --set full or --section SourceCounters"),
            std::string::npos)
      << run.out;
  testing::Finished csv = Run({"source", path, "--csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(Lines(csv.out).size(), 1u);  // the header alone
  EXPECT_NE(csv.err.find("has no source data"), std::string::npos) << csv.err;
}

// The source tables of a report are input like any other: damaged ones cost their data (with
// one note each), never a crash or a hang.
TEST_F(SourceCommandTest, DamagedSourceTablesAreNotesNotCrashes) {
  // A cubin cut short but stored whole-looking (right size, valid zlib): CUPTI's line table
  // reader and nvdisasm get garbage.
  std::vector<std::uint8_t> cut(cubin_.begin(), cubin_.begin() + 700);
  cut.resize(cubin_.size(), 0x5a);
  StatusOr<std::vector<std::uint8_t>> packed = store::CompressCounterData(cut);
  ASSERT_TRUE(packed.ok());
  const char* damages[] = {
      "UPDATE cubins SET image = substr(image, 1, 100)",
      "UPDATE cubins SET size = 1000000000000",
      "UPDATE cubins SET image = ?1",
      "UPDATE instruction_values SET value = -5 WHERE pc_offset = 0",
      "UPDATE instruction_values SET function_id = 999999",
      "DELETE FROM strings",
      "DROP TABLE kernel_source",
  };
  for (const char* damage : damages) {
    const std::string path = dir_.File("damaged.sqlite");
    std::filesystem::copy_file(report_, path, std::filesystem::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, damage, -1, &st, nullptr), SQLITE_OK) << damage;
    sqlite3_bind_blob(st, 1, packed->data(), static_cast<int>(packed->size()), SQLITE_STATIC);
    ASSERT_EQ(sqlite3_step(st), SQLITE_DONE) << damage;
    sqlite3_finalize(st);
    sqlite3_close(db);
    for (const char* print : {"sass", "cuda,sass"}) {
      testing::Finished run = Run({"source", path, "--csv", "--print-source", print});
      EXPECT_EQ(run.signal, 0) << damage;
      EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << damage << ": " << run.err;
      if (run.exit_code == 1) {
        EXPECT_EQ(Lines(run.err).size(), 1u) << damage << ": " << run.err;
      }
    }
  }
}

}  // namespace
}  // namespace gpuscope::cli

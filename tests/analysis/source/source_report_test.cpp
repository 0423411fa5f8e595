// Reports with source counters built through the real writer from the probe's recorded data
// (probe.cubin, and ncu's per-instruction values of k_fp64: probe_ncu_sass.csv), evaluated
// (SASS through the nvdisasm stand-in, lines through CUPTI) and read back as the source page;
// its totals are checked against ncu's.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "../../support/sass_text.h"
#include "analysis/source/source_columns.h"
#include "analysis/source/source_view.h"
#include "evaluate/report_evaluation.h"
#include "store/report_reader.h"
#include "store/source_tables.h"
#include "store/testing/report_builder.h"
#include "store/testing/sass_fixtures.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis::source {
namespace {

const std::string kData = std::string(GPUSCOPE_TEST_DATA_DIR) + "/sass/";
constexpr std::uint64_t kProbeCrc = 57506000;
constexpr const char* kFp64 = "_Z6k_fp64PKfPfi";

std::size_t Column(std::string_view header) {
  std::optional<std::size_t> column = FindSourceColumn(header);
  EXPECT_TRUE(column.has_value()) << header;
  return column.value_or(0);
}

class SourceReport : public ::testing::Test {
 protected:
  void SetUp() override {
    ncu_ = store::testing::LoadNcuSourceCsv(kData + "probe_ncu_sass.csv", kFp64, kProbeCrc);
    cubin_ = store::testing::ReadBinaryFile(kData + "probe.cubin");
  }
  // One launch of k_fp64 with ncu's values; a second launch without source counters.
  std::string Build(bool with_cubin = true) {
    const std::string path = dir_.File("probe.sqlite");
    store::testing::ReportBuilder builder(path);
    store::testing::SourceLaunchSpec spec;
    spec.mangled_name = kFp64;
    spec.values = ncu_.values;
    if (with_cubin) spec.cubins.push_back({kProbeCrc, cubin_});
    builder.ProfiledSourceLaunch(spec);
    store::testing::SourceLaunchSpec plain;
    plain.mangled_name = kFp64;
    plain.profile_index = 1;
    plain.requested = false;
    builder.ProfiledSourceLaunch(plain);
    EXPECT_TRUE(builder.Close().ok());
    return path;
  }

  std::map<std::int64_t, KernelSource> Load(const std::string& path) {
    auto reader = store::ReportReader::Open(path);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
    auto sources = LoadKernelSources(**reader);
    EXPECT_TRUE(sources.ok()) << sources.status().message();
    return *sources;
  }

  store::testing::ScratchDir dir_;
  // The recorded listing stands in for nvdisasm (machines without a GPU have none).
  const evaluate::NvdisasmSearch nvdisasm_{.chosen = kData + "fake_nvdisasm.sh"};
  store::testing::NcuSourceKernel ncu_;
  std::vector<std::uint8_t> cubin_;
};

TEST_F(SourceReport, TotalsAgreeWithNcu) {
  const std::string path = Build();
  ASSERT_TRUE(evaluate::EvaluateReport(path, nvdisasm_).ok());
  std::map<std::int64_t, KernelSource> sources = Load(path);
  ASSERT_EQ(sources.size(), 1u);  // the launch without source counters has none
  const KernelSource& kernel = sources.begin()->second;
  EXPECT_TRUE(kernel.requested);
  EXPECT_TRUE(kernel.has_sass);
  EXPECT_TRUE(kernel.has_lines);
  ASSERT_EQ(kernel.instructions.size(), ncu_.offsets.size());
  ColumnValues totals(SourceColumns().size());
  for (const InstructionRow& row : kernel.instructions) {
    AddColumns(totals, row.values);
    EXPECT_EQ(testing::ComparableSass(row.sass.value_or("")), testing::ComparableSass(ncu_.sass.at(row.pc_offset)))
        << row.pc_offset;
  }
  // The README's sums, and ncu's column totals for every column both have.
  EXPECT_EQ(totals[Column("Instructions Executed")], 28'606'464u);
  EXPECT_EQ(totals[Column("Thread Instructions Executed")], 915'406'848u);
  EXPECT_EQ(totals[Column("Predicated-On Thread Instructions Executed")], 780'140'544u);
  EXPECT_EQ(totals[Column("L2 Theoretical Sectors Global")], 10'485'760u);
  EXPECT_EQ(totals[Column("L2 Theoretical Sectors Global Ideal")], 8'650'752u);
  for (const SourceColumn& column : SourceColumns()) {
    auto ncu = ncu_.column_totals.find(std::string(column.header));
    if (ncu == ncu_.column_totals.end()) continue;
    EXPECT_EQ(totals[Column(column.header)].value_or(0), ncu->second) << column.header;
  }
  // Derived columns that ncu prints too, and the two stall sums.
  EXPECT_GT(ncu_.column_totals.at("Warp Stall Sampling (All Samples)"), 0u);
  EXPECT_EQ(totals[Column("L2 Theoretical Sectors Global Excessive")], 10'485'760u - 8'650'752u);
}

TEST_F(SourceReport, PerLineSumsAndHottestLineNameTheCode) {
  const std::string path = Build();
  ASSERT_TRUE(evaluate::EvaluateReport(path, nvdisasm_).ok());
  const KernelSource kernel = Load(path).begin()->second;
  std::uint64_t line_sum = 0;
  const std::size_t executed = Column("Instructions Executed");
  for (const LineRow& line : kernel.lines) line_sum += line.values[executed].value_or(0);
  EXPECT_EQ(line_sum, 28'606'464u);
  // ncu's cuda,sass page (probe_ncu_cuda_sass.csv): line 22 runs 28,246,016 instructions.
  std::vector<HotSpot> top = TopLines(kernel, executed, 3);
  ASSERT_FALSE(top.empty());
  EXPECT_EQ(top[0].line, 22u);
  EXPECT_EQ(top[0].value, 28'246'016u);
  EXPECT_EQ(top[0].Location(), "source_probe.cu:22");
  EXPECT_EQ(top[0].Summary().rfind("28,246,016 ", 0), 0u) << top[0].Summary();
  // The text when the file is where the line table says (the machine that built the probe).
  if (top[0].source_text) {
    EXPECT_NE(top[0].source_text->find("for (int i = 0; i < 64; ++i)"), std::string::npos);
  }
  ASSERT_FALSE(top[0].opcodes.empty());
  std::vector<HotSpot> instructions = TopInstructions(kernel, Column("stall_long_sb"), 1);
  ASSERT_EQ(instructions.size(), 1u);
  EXPECT_TRUE(instructions[0].pc_offset.has_value());
}

TEST_F(SourceReport, EvaluatesOnceAndWritesNothingAfter) {
  const std::string path = Build();
  {
    auto reader = store::ReportReader::Open(path);
    ASSERT_TRUE(reader.ok());
    EXPECT_TRUE(store::ReadSassInstructions(**reader)->empty());
  }
  ASSERT_TRUE(evaluate::EvaluateReport(path, nvdisasm_).ok());
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  // Without nvdisasm a second run would now store no SASS: it must not run.
  ASSERT_TRUE(evaluate::EvaluateReport(path, {}).ok());
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
  EXPECT_EQ(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
  EXPECT_TRUE(Load(path).begin()->second.has_sass);
}

TEST_F(SourceReport, WithoutNvdisasmOffsetsAndLinesOnly) {
  const std::string path = Build();
  ASSERT_TRUE(evaluate::EvaluateReport(path, {.chosen = dir_.File("no-nvdisasm")}).ok());
  const KernelSource kernel = Load(path).begin()->second;
  EXPECT_FALSE(kernel.has_sass);
  EXPECT_TRUE(kernel.has_lines);
  EXPECT_EQ(kernel.instructions.size(), ncu_.offsets.size());  // every measured pc
}

TEST_F(SourceReport, WithoutTheCubinOffsetsOnly) {
  const std::string path = Build(/*with_cubin=*/false);
  ASSERT_TRUE(evaluate::EvaluateReport(path, nvdisasm_).ok());
  const KernelSource kernel = Load(path).begin()->second;
  EXPECT_FALSE(kernel.has_sass);
  EXPECT_FALSE(kernel.has_lines);
  EXPECT_EQ(kernel.instructions.size(), ncu_.offsets.size());
  ASSERT_EQ(kernel.lines.size(), 1u);  // one group: no line information
  EXPECT_FALSE(kernel.lines[0].line.has_value());
}

TEST_F(SourceReport, AReportWithoutSourceTablesHasNoSourceData) {
  const std::string path = dir_.File("plain.sqlite");
  store::testing::ReportBuilder builder(path);
  builder.ProfiledLaunch(builder.Kernel(0, 1000), 0, 2000);
  ASSERT_TRUE(builder.Close().ok());
  ASSERT_TRUE(evaluate::EvaluateReport(path, nvdisasm_).ok());
  EXPECT_TRUE(Load(path).empty());
}

// k.cubin's line table names /tmp/sx/k.cu (where it was built). With that file in place the
// evaluation stores its text, and the page quotes the hot line.
TEST(SourceFiles, TheNamedFileIsStoredAndItsLineQuoted) {
  namespace fs = std::filesystem;
  const fs::path source = "/tmp/sx/k.cu";
  bool made_dir = false, made_file = false;
  std::error_code error;
  if (!fs::exists(source)) {
    made_dir = fs::create_directory(source.parent_path(), error);
    made_file = fs::copy_file(kData + "k.cu", source, error);
  }
  std::ifstream in(source);
  std::string line1, line2, line3, line4;
  std::getline(in, line1) && std::getline(in, line2) && std::getline(in, line3) &&
      std::getline(in, line4);
  store::testing::ScratchDir dir;
  const std::string path = dir.File("k.sqlite");
  std::vector<std::uint8_t> cubin = store::testing::ReadBinaryFile(kData + "k.cubin");
  {
    store::testing::ReportBuilder builder(path);
    store::testing::SourceLaunchSpec spec;
    spec.mangled_name = "_Z3accPKfPdi";
    spec.values = {{4247150626u, "_Z3accPKfPdi", 0x130, "smsp__sass_inst_executed", 500},
                   {4247150626u, "_Z3accPKfPdi", 0x0, "smsp__sass_inst_executed", 1}};
    spec.cubins = {{4247150626u, cubin}};
    builder.ProfiledSourceLaunch(spec);
    ASSERT_TRUE(builder.Close().ok());
  }
  ASSERT_TRUE(evaluate::EvaluateReport(path, {.chosen = kData + "fake_nvdisasm.sh"}).ok());
  auto reader = store::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  auto files = store::ReadSourceFiles(**reader);
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ(files->begin()->second.path, "/tmp/sx/k.cu");
  auto sources = LoadKernelSources(**reader);
  ASSERT_TRUE(sources.ok());
  const KernelSource& kernel = sources->begin()->second;
  EXPECT_EQ(kernel.instructions.size(), 40u);  // the whole listing of acc, padding NOPs too
  std::vector<HotSpot> top = TopLines(kernel, Column("Instructions Executed"), 5);
  ASSERT_EQ(top.size(), 2u);  // lines 4 and 1; the others ran nothing measured
  EXPECT_EQ(top[0].Location(), "k.cu:4");
  EXPECT_EQ(top[0].value, 500u);
  EXPECT_EQ(top[0].opcodes, std::vector<std::string>{"DADD"});
  EXPECT_EQ(top[0].Summary(), "500 DADD at k.cu:4");
  if (!line4.empty()) {
    EXPECT_EQ(top[0].source_text, line4);
  }
  if (made_file) fs::remove(source, error);
  if (made_dir) fs::remove(source.parent_path(), error);
}

TEST(SourceColumns, DerivedColumnsAndStallSums) {
  InstructionMetrics metrics = {
      {"smsp__sass_sectors_mem_global", 10},
      {"smsp__sass_sectors_mem_global_ideal", 4},
      {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared", 3},
      {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 5},
      {"smsp__pcsamp_warps_issue_stalled_long_scoreboard", 7},
      {"smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued", 6},
      {"smsp__pcsamp_warps_issue_stalled_selected", 2},
      {"smsp__pcsamp_warps_issue_stalled_some_future_reason", 1},
      {"smsp__pcsamp_sample_count", 10},
  };
  ColumnValues values = ComputeColumns(metrics);
  EXPECT_EQ(values[Column("L2 Theoretical Sectors Global Excessive")], 6u);
  EXPECT_EQ(values[Column("L1 Wavefronts Shared Excessive")], 0u);  // never below 0
  EXPECT_EQ(values[Column("Warp Stall Sampling (All Samples)")], 10u);
  EXPECT_EQ(values[Column("Warp Stall Sampling (Not-issued Samples)")], 6u);
  EXPECT_EQ(values[Column("stall_long_sb")], 7u);
  EXPECT_EQ(values[Column("stall_long_sb (Not Issued)")], 6u);
  EXPECT_FALSE(values[Column("Instructions Executed")].has_value());
  EXPECT_FALSE(values[Column("Divergent Branches")].has_value());
  EXPECT_EQ(FindSourceColumn("STALL_LONG_SB"), FindSourceColumn("stall_long_sb"));
  EXPECT_FALSE(FindSourceColumn("stall_bogus").has_value());
}

TEST(SourceOpcodes, SkipThePredicate) {
  EXPECT_EQ(OpcodeOf("DADD R2, R6, R2"), "DADD");
  EXPECT_EQ(OpcodeOf("@!P0 BRA `(.L_x_2)"), "BRA");
  EXPECT_EQ(OpcodeOf("IMAD.WIDE.U32 R8, R13, 0x8, R8"), "IMAD.WIDE.U32");
  EXPECT_EQ(HexOffset(0x130), "0x0130");
}

}  // namespace
}  // namespace gpuscope::analysis::source

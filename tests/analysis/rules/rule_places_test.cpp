// The findings name the line (issue 11): reports with source counters built through the real
// writer (the probe's k_fp64 values as ncu recorded them, probe_ncu_sass.csv, and a few
// hand-made values of k.cu's `acc`), their SASS and lines read by the evaluation's own code
// (nvdisasm through tests/data/sass/fake_nvdisasm.sh, the line tables through CUPTI's host
// API), and the findings of hand-made metrics over them made by the evaluation's
// FindingsOfMeasuredKernels. A kernel without source data gets exactly the message it had.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "analysis/metrics/section_catalog.h"
#include "analysis/rules/source_places.h"
#include "analysis/source/source_view.h"
#include "evaluate/kernel_findings.h"
#include "evaluate/report_evaluation.h"
#include "evaluate/source_evaluation.h"
#include "render/details_format.h"
#include "store/evaluation_writer.h"
#include "store/profile_store.h"
#include "store/report_reader.h"
#include "store/testing/report_builder.h"
#include "store/testing/sass_fixtures.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::evaluate {
namespace {

using ::gpuscope::store::testing::ReadWholeFile;

using analysis::metrics::KernelProfile;
using analysis::source::KernelSource;

const std::string kData = std::string(GPUSCOPE_TEST_DATA_DIR) + "/sass/";
constexpr std::uint64_t kProbeCrc = 57506000;
constexpr const char* kFp64 = "_Z6k_fp64PKfPfi";
// Where the recorded cubins' line tables say their sources were (the machines that built them).
constexpr const char* kProbeSource = "/work/main/.carry/probe/source_probe.cu";
constexpr const char* kAccSource = "/tmp/sx/k.cu";
constexpr std::uint64_t kAccCrc = 4247150626u;
constexpr const char* kAcc = "_Z3accPKfPdi";

// The probe's lines 22 and 23 as they are in source_probe.cu, trimmed.
constexpr const char* kLine22 = "for (int i = 0; i < 64; ++i) s += a[(threadIdx.x + i) % n] * 1.5;";
constexpr const char* kLine23 = "out[blockIdx.x * blockDim.x + threadIdx.x] += (float)s;";

// What the rules need beyond the metrics named by each test: a grid that fills the GPU.
KernelProfile Profile(std::int64_t id, std::map<std::string, double> metrics) {
  KernelProfile profile;
  profile.id = id;
  profile.measured = true;
  profile.grid = {1024, 1, 1};
  profile.block = {256, 1, 1};
  profile.device.num_sms = 132;
  profile.metrics = std::move(metrics);
  return profile;
}

// The message of `rule` among the findings of `profile` (with `sources`), "" when it did not
// fire.
std::string MessageOf(const KernelProfile& profile,
                      const std::map<std::int64_t, KernelSource>& sources,
                      const std::string& rule) {
  const auto findings = FindingsOfMeasuredKernels({profile}, sources);
  const auto kernel = findings.find(profile.id);
  if (kernel == findings.end()) return "";
  for (const store::StoredFinding& finding : kernel->second) {
    if (finding.rule_id == rule) return finding.message;
  }
  return "";
}

class RulePlaces : public ::testing::Test {
 protected:
  // The recorded listing stands in for nvdisasm (machines without a GPU have none).
  const NvdisasmSearch nvdisasm_{.chosen = kData + "fake_nvdisasm.sh"};

  // A report with one launch of `spec`, its SASS and lines read as the evaluation reads them
  // (not stored: the findings are made before the evaluation writes, from the pending rows),
  // and the source files taken from tests/data/sass, as if they had been where the line
  // tables say. `keep_lines` false: as a cubin built without -lineinfo.
  std::map<std::int64_t, KernelSource> Sources(const store::testing::SourceLaunchSpec& spec,
                                               bool keep_lines = true) {
    const std::string path = dir_.File("r" + std::to_string(++reports_) + ".sqlite");
    {
      store::testing::ReportBuilder builder(path);
      builder.ProfiledSourceLaunch(spec);
      EXPECT_TRUE(builder.Close().ok());
    }
    auto reader = store::ReportReader::Open(path);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
    if (!reader.ok()) return {};
    auto evaluation = EvaluateSource(**reader, nvdisasm_);
    EXPECT_TRUE(evaluation.ok()) << evaluation.status().message();
    if (!evaluation.ok()) return {};
    store::SourceRows& rows = evaluation->rows;
    EXPECT_FALSE(rows.instructions.empty());
    rows.files.clear();
    rows.files[kProbeSource] = ReadWholeFile(kData + "source_probe.cu");
    rows.files[kAccSource] = ReadWholeFile(kData + "k.cu");
    if (!keep_lines) {
      for (store::SassInstructionRow& row : rows.instructions) {
        row.file.reset();
        row.line.reset();
      }
    }
    auto sources = analysis::source::LoadKernelSources(**reader, &rows);
    EXPECT_TRUE(sources.ok()) << sources.status().message();
    return sources.ok() ? *sources : std::map<std::int64_t, KernelSource>{};
  }

  // One launch of the probe's k_fp64 with ncu's recorded values.
  std::map<std::int64_t, KernelSource> ProbeSources(bool keep_lines = true) {
    store::testing::NcuSourceKernel ncu =
        store::testing::LoadNcuSourceCsv(kData + "probe_ncu_sass.csv", kFp64, kProbeCrc);
    store::testing::SourceLaunchSpec spec;
    spec.mangled_name = kFp64;
    spec.values = ncu.values;
    spec.cubins.push_back({kProbeCrc, probe_cubin_});
    return Sources(spec, keep_lines);
  }

  // One launch of k.cu's acc with `values`.
  std::map<std::int64_t, KernelSource> AccSources(std::vector<model::InstructionValue> values) {
    store::testing::SourceLaunchSpec spec;
    spec.mangled_name = kAcc;
    spec.values = std::move(values);
    spec.cubins.push_back({kAccCrc, acc_cubin_});
    return Sources(spec);
  }

  store::testing::ScratchDir dir_;
  int reports_ = 0;
  // The records only point at the cubins' bytes: they live as long as the test.
  const std::vector<std::uint8_t> probe_cubin_ =
      store::testing::ReadBinaryFile(kData + "probe.cubin");
  const std::vector<std::uint8_t> acc_cubin_ = store::testing::ReadBinaryFile(kData + "k.cubin");
};

// Metrics of a kernel whose FP32 data is promoted to FP64 (fp64_with_fp32_data fires).
std::map<std::string, double> PromotedFp64() {
  return {{"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 70'000'000},
          {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 0},
          {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 0},
          {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", 0},
          {"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", 0},
          {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 67'108'864},
          {"sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", 15.8},
          {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 40}};
}

TEST_F(RulePlaces, Fp64WithFp32DataNamesTheLineItsCountOpcodeAndCode) {
  const auto sources = ProbeSources();
  ASSERT_EQ(sources.size(), 1u);
  const std::int64_t id = sources.begin()->first;
  const std::string with = MessageOf(Profile(id, PromotedFp64()), sources, "fp64_with_fp32_data");
  const std::string without = MessageOf(Profile(id, PromotedFp64()), {}, "fp64_with_fp32_data");
  ASSERT_FALSE(without.empty());
  // ncu's page: every DFMA of k_fp64 is on line 22, 67,108,864 predicated-on thread
  // instructions in all (the rule's own FP64 total).
  const std::string place = " The hottest FP64 lines: 67,108,864 DFMA at source_probe.cu:22 `" +
                            std::string(kLine22) + "`.";
  EXPECT_EQ(with, without + place);
  EXPECT_EQ(without.find("source_probe"), std::string::npos);
}

TEST_F(RulePlaces, Fp64ExecutedNamesTheLineToo) {
  const auto sources = ProbeSources();
  ASSERT_EQ(sources.size(), 1u);
  auto metrics = PromotedFp64();
  metrics["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"] = 0;  // FP64 data
  const std::string with =
      MessageOf(Profile(sources.begin()->first, metrics), sources, "fp64_executed");
  EXPECT_NE(with.find(" The hottest FP64 lines: 67,108,864 DFMA at source_probe.cu:22 `for "),
            std::string::npos)
      << with;
}

TEST_F(RulePlaces, UncoalescedLoadsNameTheLinesWithExcessiveSectors) {
  const auto sources = ProbeSources();
  ASSERT_EQ(sources.size(), 1u);
  const std::int64_t id = sources.begin()->first;
  const std::map<std::string, double> metrics = {
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio", 26.4},
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio", 20.0},
      {"l1tex__throughput.avg.pct_of_peak_sustained_active", 50},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 40}};
  const std::string loads = MessageOf(Profile(id, metrics), sources, "uncoalesced_global_loads");
  const std::string old_loads = MessageOf(Profile(id, metrics), {}, "uncoalesced_global_loads");
  ASSERT_FALSE(old_loads.empty());
  // 10,485,760 sectors where 8,650,752 were needed, all of them by the loads of line 22.
  EXPECT_EQ(loads, old_loads +
                       " The lines with the most excessive sectors: 1,835,008 excessive sectors "
                       "(100.0% of the kernel's) at source_probe.cu:22 `" +
                       kLine22 + "`.");
  // The store of line 23 moves no excessive sector: nothing to name, the message stays.
  const std::string stores = MessageOf(Profile(id, metrics), sources, "uncoalesced_global_stores");
  ASSERT_FALSE(stores.empty());
  EXPECT_EQ(stores, MessageOf(Profile(id, metrics), {}, "uncoalesced_global_stores"));
}

TEST_F(RulePlaces, TopStallReasonNamesTheLinesWhereWarpsWait) {
  const auto sources = ProbeSources();
  ASSERT_EQ(sources.size(), 1u);
  const std::int64_t id = sources.begin()->first;
  const std::map<std::string, double> metrics = {
      {"smsp__average_warp_latency_per_inst_issued.ratio", 10},
      {"smsp__issue_active.avg.per_cycle_active", 0.3},
      {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", 6},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 30}};
  const std::string with = MessageOf(Profile(id, metrics), sources, "top_stall_reason");
  const std::string without = MessageOf(Profile(id, metrics), {}, "top_stall_reason");
  ASSERT_FALSE(without.empty());
  // ncu's stall_long_sb column: 311 samples at the FADD of line 23 (waiting for the load of
  // out[]), 21 at the F2F of line 22 (waiting for a[]).
  EXPECT_EQ(with, without +
                      " The lines where warps wait on Long Scoreboard: 311 samples (93.7% of the "
                      "kernel's) at source_probe.cu:23 `" +
                      kLine23 + "`; 21 samples (6.3% of the kernel's) at source_probe.cu:22 `" +
                      kLine22 + "`.");
}

TEST_F(RulePlaces, WithoutLinesTheOffsetAndOpcodeAreNamed) {
  const auto sources = ProbeSources(/*keep_lines=*/false);
  ASSERT_EQ(sources.size(), 1u);
  const std::string with =
      MessageOf(Profile(sources.begin()->first, PromotedFp64()), sources, "fp64_with_fp32_data");
  const std::string without =
      MessageOf(Profile(sources.begin()->first, PromotedFp64()), {}, "fp64_with_fp32_data");
  // Each DFMA on its own: the probe's loop is unrolled into 16 DFMAs of 4,194,304 predicated-on
  // thread instructions each (ties in address order).
  EXPECT_EQ(with, without +
                      " The hottest FP64 instructions: 4,194,304 at +0x05e0 DFMA; 4,194,304 at "
                      "+0x0640 DFMA; 4,194,304 at +0x0ca0 DFMA.");
}

TEST_F(RulePlaces, DivergentBranchesAndBankConflictsNameTheirLines) {
  // acc's loop branch (BRA at 0x0140, line 3) diverging, and shared wavefronts replayed at its
  // DADD (0x0130, line 4): hand-made values on a real listing and line table.
  const auto sources = AccSources({
      {kAccCrc, kAcc, 0x140, "smsp__sass_branch_targets_threads_divergent", 4096},
      {kAccCrc, kAcc, 0x130, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared", 96},
      {kAccCrc, kAcc, 0x130, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 32},
  });
  ASSERT_EQ(sources.size(), 1u);
  const std::int64_t id = sources.begin()->first;
  const std::map<std::string, double> metrics = {
      {"smsp__thread_inst_executed_per_inst_executed.ratio", 20},
      {"smsp__sass_branch_targets_threads_divergent.sum", 4096},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 40},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 64},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 96},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0},
      {"smsp__sass_inst_executed_op_shared_ld.sum", 32},
      {"smsp__sass_inst_executed_op_shared_st.sum", 0},
      {"l1tex__throughput.avg.pct_of_peak_sustained_active", 50}};
  const std::string divergent = MessageOf(Profile(id, metrics), sources, "divergent_branches");
  const std::string old_divergent = MessageOf(Profile(id, metrics), {}, "divergent_branches");
  ASSERT_FALSE(old_divergent.empty());
  EXPECT_EQ(divergent, old_divergent +
                           " The most divergent branches: 4,096 divergent branch targets (100.0% "
                           "of the kernel's) at k.cu:3 `for (int i = threadIdx.x; i < n; i += "
                           "blockDim.x)`.");
  const std::string conflicts = MessageOf(Profile(id, metrics), sources, "smem_bank_conflicts");
  const std::string old_conflicts = MessageOf(Profile(id, metrics), {}, "smem_bank_conflicts");
  ASSERT_FALSE(old_conflicts.empty());
  EXPECT_EQ(conflicts, old_conflicts +
                           " The lines with the most excessive shared wavefronts: 64 excessive "
                           "wavefronts (100.0% of the kernel's) at k.cu:4 `s += a[i] * 2.0f;`.");
}

TEST_F(RulePlaces, SourceDataWithoutSamplesAddsNothingToTheStallFinding) {
  const auto sources = AccSources({{kAccCrc, kAcc, 0x130, "smsp__sass_inst_executed", 500}});
  ASSERT_EQ(sources.size(), 1u);
  const std::int64_t id = sources.begin()->first;
  const std::map<std::string, double> metrics = {
      {"smsp__average_warp_latency_per_inst_issued.ratio", 10},
      {"smsp__issue_active.avg.per_cycle_active", 0.3},
      {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", 6},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 30}};
  const std::string with = MessageOf(Profile(id, metrics), sources, "top_stall_reason");
  ASSERT_FALSE(with.empty());
  EXPECT_EQ(with, MessageOf(Profile(id, metrics), {}, "top_stall_reason"));
}

// The whole way: a report of `gpuscope profile` whose counters were evaluated (on the GPU
// machine, without nvdisasm) is read where nvdisasm is: EvaluateReport adds SASS and lines and
// makes the findings again, which now name the line; the kernel without source data keeps its
// message.
TEST_F(RulePlaces, EvaluationStoresFindingsThatNameTheLine) {
  const std::string path = dir_.File("profile.sqlite");
  store::testing::NcuSourceKernel ncu =
      store::testing::LoadNcuSourceCsv(kData + "probe_ncu_sass.csv", kFp64, kProbeCrc);
  const std::vector<std::uint8_t> counter_data = {1, 2, 3, 4};  // never read: values are stored
  const std::vector<model::CubinImage> cubins = {{kProbeCrc, probe_cubin_}};
  {
    store::testing::ReportBuilder builder(path);
    for (int launch = 0; launch < 2; ++launch) {
      model::ProfiledKernelRecord record;
      record.correlation_id = builder.NextCorrelation();
      record.profile_index = static_cast<std::uint32_t>(launch);
      record.invocation = static_cast<std::uint32_t>(launch);
      record.start = builder.At(1000 * (launch + 1));
      record.end = record.start + 500;
      record.mangled_name = kFp64;
      record.chip = "GH100";
      record.passes = 40;
      record.counter_data = counter_data;
      if (launch == 0) {  // the second launch was profiled without source counters
        record.source.requested = true;
        record.instruction_values = ncu.values;
        record.cubins = cubins;
      }
      builder.Write(record);
    }
    ASSERT_TRUE(builder.Close().ok());
  }
  std::vector<std::int64_t> ids;
  {
    auto reader = store::ReportReader::Open(path);
    ASSERT_TRUE(reader.ok());
    auto kernels = store::ReadProfiledKernels(**reader);
    ASSERT_TRUE(kernels.ok());
    for (const store::StoredProfile& kernel : *kernels) ids.push_back(kernel.id);
  }
  ASSERT_EQ(ids.size(), 2u);
  // The counters' evaluation as `gpuscope profile` stored it.
  store::EvaluationRows evaluated;
  for (std::int64_t id : ids) {
    for (const auto& [name, value] : PromotedFp64()) {
      evaluated.metrics[id].push_back({name, value, ""});
    }
  }
  ASSERT_TRUE(store::WriteEvaluation(path, evaluated).ok());

  ASSERT_TRUE(EvaluateReport(path, nvdisasm_).ok());
  auto reader = store::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  auto findings = store::ReadKernelFindings(**reader);
  ASSERT_TRUE(findings.ok());
  auto message = [&](std::int64_t id) {
    for (const store::StoredFinding& finding : (*findings)[id]) {
      if (finding.rule_id == "fp64_with_fp32_data") return finding.message;
    }
    return std::string();
  };
  const std::string with = message(ids[0]);
  const std::string without = message(ids[1]);
  ASSERT_FALSE(without.empty());
  // The code only when the probe's source is where its line table says (the GPU machine).
  EXPECT_EQ(
      with.rfind(without + " The hottest FP64 lines: 67,108,864 DFMA at source_probe.cu:22", 0), 0u)
      << with;
  EXPECT_EQ(without.find("source_probe"), std::string::npos);
}

// The details page (`gpuscope profile`, `stats --page details`) prints the findings with their
// lines too, given the report's source pages; without them, as before.
TEST_F(RulePlaces, DetailsPageFindingsNameTheLine) {
  const auto sources = ProbeSources();
  ASSERT_EQ(sources.size(), 1u);
  auto sections = analysis::metrics::FindSections({"InstructionStats"});
  ASSERT_TRUE(sections.ok()) << sections.status().message();
  const KernelProfile profile = Profile(sources.begin()->first, PromotedFp64());
  render::DetailsOptions options;
  options.sources = &sources;
  const std::string with = render::FormatDetailsPage({profile}, *sections, options);
  const std::string without = render::FormatDetailsPage({profile}, *sections);
  EXPECT_NE(with.find("source_probe.cu:22"), std::string::npos) << with;
  EXPECT_EQ(without.find("source_probe.cu"), std::string::npos) << without;
}

// The code is quoted on one line, bounded, and never cut inside a UTF-8 character.
TEST(PlaceText, CodeTrimmedAndBounded) {
  analysis::rules::Place place;
  place.file = "/src/dir/k.cu";
  place.line = 7;
  place.text = "\t  s  +=\tx;   ";
  EXPECT_EQ(analysis::rules::PlaceText(place), "k.cu:7 `s += x;`");
  place.text = std::string(76, 'a') + "\xc3\xa9" + std::string(40, 'b');  // é at bytes 76-77
  const std::string text = analysis::rules::PlaceText(place);
  EXPECT_EQ(text, "k.cu:7 `" + std::string(76, 'a') + "...`");
  place.text.reset();
  EXPECT_EQ(analysis::rules::PlaceText(place), "k.cu:7");
  place.file = "";
  EXPECT_EQ(analysis::rules::PlaceText(place), "?:7");
  place.line.reset();
  place.pc_offset = 0x130;
  place.opcodes = {"DADD"};
  EXPECT_EQ(analysis::rules::PlaceText(place), "+0x0130 DADD");
}

}  // namespace
}  // namespace gpuscope::evaluate

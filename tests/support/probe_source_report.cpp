#include "probe_source_report.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "evaluate/source_evaluation.h"
#include "store/evaluation_writer.h"
#include "store/report_reader.h"
#include "store/testing/report_builder.h"
#include "store/testing/sass_fixtures.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::testing {
namespace {

using ::gpuscope::store::testing::ReadWholeFile;

const std::string kData = std::string(GPUSCOPE_TEST_DATA_DIR) + "/sass/";
constexpr std::uint64_t kProbeCrc = 57506000;
// Where the recorded cubin's line table says the source was (the machine that built it).
constexpr const char* kProbeSource = "/work/main/.carry/probe/source_probe.cu";

}  // namespace

Status WriteProbeSourceReport(const ProbeSourceReport& report) {
  store::testing::NcuSourceKernel ncu =
      store::testing::LoadNcuSourceCsv(kData + "probe_ncu_sass.csv", kProbeKernel, kProbeCrc);
  if (report.edit_values) report.edit_values(ncu.values);
  const std::vector<std::uint8_t> cubin = store::testing::ReadBinaryFile(kData + "probe.cubin");
  {
    store::testing::ReportBuilder builder(report.path);
    store::testing::KernelSpec k_fp64{.name = kProbeKernel,
                                      .grid = {4096, 1, 1},
                                      .block = {256, 1, 1},
                                      .registers_per_thread = 16};
    builder.Kernel(1000, 52 * store::testing::kUs, k_fp64);
    const std::uint32_t profiled =
        builder.Kernel(60 * store::testing::kUs, 51 * store::testing::kUs, k_fp64);
    builder.Kernel(120 * store::testing::kUs, 3 * store::testing::kUs);  // work()
    store::testing::SourceLaunchSpec spec;
    spec.mangled_name = kProbeKernel;
    spec.correlation = profiled;
    spec.values = ncu.values;
    spec.cubins.push_back({kProbeCrc, cubin});
    builder.ProfiledSourceLaunch(spec);
    store::testing::SourceLaunchSpec plain;
    plain.mangled_name = "_Z4workv";
    plain.profile_index = 1;
    plain.requested = false;
    builder.ProfiledSourceLaunch(plain);
    if (Status closed = builder.Close(); !closed.ok()) return closed;
  }
  StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(report.path);
  if (!reader.ok()) return reader.status();
  StatusOr<evaluate::SourceEvaluation> evaluation =
      evaluate::EvaluateSource(**reader, {.chosen = kData + "fake_nvdisasm.sh"});
  reader->reset();
  if (!evaluation.ok()) return evaluation.status();
  if (evaluation->rows.instructions.empty()) return Status::Error("the evaluation read no SASS");
  if (report.store_source_text) {
    evaluation->rows.files[kProbeSource] = ReadWholeFile(kData + "source_probe.cu");
  }
  if (!report.keep_lines) {
    for (store::SassInstructionRow& row : evaluation->rows.instructions) {
      row.file.reset();
      row.line.reset();
    }
    evaluation->rows.files.clear();
  }
  store::EvaluationRows rows;
  rows.counters = false;
  rows.source = std::move(evaluation->rows);
  return store::WriteEvaluation(report.path, rows);
}

}  // namespace gpuscope::testing

// Reference 000's workflow on the GPU (issue 4, "Compare"): profile the convolution with the
// accidental double accumulator, fix it, profile again, and `gpuscope diff` the two reports: the
// FP64 instructions go to zero, FP32 takes their place, and the time saved is shown.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "profile_runs.h"

namespace gpuscope::gpu_test {
namespace {

constexpr int kProfilerTimeoutSeconds = 300;

// CSV fields of one line (quotes removed; the diff CSV quotes only names with commas).
std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.push_back(field);
      field.clear();
    } else {
      field += c;
    }
  }
  fields.push_back(field);
  return fields;
}

// Metric -> {Before, After, Direction, Change} for k_convolve.
std::map<std::string, std::vector<std::string>> ConvolveRows(const std::string& csv) {
  std::map<std::string, std::vector<std::string>> rows;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = Fields(line);
  auto column = [&](const char* name) {
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return i;
    }
    ADD_FAILURE() << "no column " << name << " in " << line;
    return std::size_t{0};
  };
  const std::size_t function = column("Function"), metric = column("Metric"),
                    before = column("Before"), after = column("After"),
                    direction = column("Direction"), change = column("Change");
  while (std::getline(in, line)) {
    std::vector<std::string> f = Fields(line);
    // "(anonymous namespace)::k_convolve": the example keeps its kernel file-local.
    if (f.size() < header.size() || !f[function].ends_with("::k_convolve")) continue;
    rows[f[metric]] = {f[before], f[after], f[direction], f[change]};
  }
  return rows;
}

TEST(GpuProfileDiff, FixingTheDoubleAccumulatorTakesFp64ToZeroAndSavesTime) {
  ScratchDir dir;
  const std::string program = ExampleBinary("accumulator_fix");
  CommandResult before = RunCommand({GpuscopeBinary(), "profile", "--set", "full", "-q", "-f", "-o",
                                     dir.path() + "/before.sqlite", "--", program, "double"},
                                    {}, kProfilerTimeoutSeconds);
  ASSERT_EQ(before.exit_code, 0) << before.Describe();
  CommandResult after = RunCommand({GpuscopeBinary(), "profile", "--set", "full", "-q", "-f", "-o",
                                    dir.path() + "/after.sqlite", "--", program, "float"},
                                   {}, kProfilerTimeoutSeconds);
  ASSERT_EQ(after.exit_code, 0) << after.Describe();
  CommandResult diff = RunCommand({GpuscopeBinary(), "diff", "--csv", "--all",
                                   dir.path() + "/before.sqlite", dir.path() + "/after.sqlite"});
  SaveText(dir, "diff.csv", diff.out);
  ASSERT_EQ(diff.exit_code, 0) << diff.Describe();
  std::map<std::string, std::vector<std::string>> rows = ConvolveRows(diff.out);
  ASSERT_FALSE(rows.empty()) << diff.out;

  // FP64: every add and fma of the accumulator was FP64 before and none is after.
  for (const char* fp64 : {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
                           "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"}) {
    ASSERT_TRUE(rows.count(fp64)) << fp64 << "\n" << diff.out;
  }
  const double dadd_before =
      std::stod(rows["smsp__sass_thread_inst_executed_op_dadd_pred_on.sum"][0]);
  const double dfma_before =
      std::stod(rows["smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"][0]);
  EXPECT_GT(dadd_before + dfma_before, 0);
  EXPECT_EQ(std::stod(rows["smsp__sass_thread_inst_executed_op_dadd_pred_on.sum"][1]), 0);
  EXPECT_EQ(std::stod(rows["smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"][1]), 0);
  // The time saved: the kernel got faster, and diff says so.
  ASSERT_TRUE(rows.count("gpu__time_duration.sum")) << diff.out;
  const auto& duration = rows["gpu__time_duration.sum"];
  EXPECT_LT(std::stod(duration[1]), std::stod(duration[0])) << diff.out;
  EXPECT_EQ(duration[3], "better") << diff.out;
}

}  // namespace
}  // namespace gpuscope::gpu_test

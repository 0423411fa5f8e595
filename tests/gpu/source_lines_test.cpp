// Each planted problem attributed to its source line (issue 11, acceptance (b)): the line of
// every planted problem in examples/metrics/metrics_kernels.cu (and of reference 000's
// accumulator in examples/python/numba_convolve.py) ends with a `planted: <name>` comment;
// the test finds the line by that marker, profiles the kernel with source counters, and asks
// `gpuscope source --csv` which line holds the most of what the problem costs:
//   fp64-accumulator  executed FP64 arithmetic (DADD, DMUL, DFMA SASS rows, by their line)
//   uncoalesced       L2 Theoretical Sectors Global Excessive (per-line rows)
//   bank-conflicts    L1 Wavefronts Shared Excessive (per-line rows)
//   divergent-branch  Divergent Branches (per-line rows; three marked lines: the if and
//                     both loops diverge)
//   local-memory      executed local loads (LDL SASS rows, by their line)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "profile_runs.h"
#include "python_modules.h"
#include "source_csv.h"

namespace gpuscope::gpu_test {
namespace {

namespace nc = gpuscope::ncu_csv;

constexpr int kProfileTimeoutSeconds = 300;

// The lines of `path` (from 1) that end with a `planted: <name>` comment (C++ or Python).
std::set<long> MarkedLines(const std::string& path, const std::string& name) {
  const std::regex marker("(//|#)\\s*planted:\\s*" + name + "\\s*$");
  std::set<long> lines;
  std::ifstream file(path);
  long number = 0;
  for (std::string line; std::getline(file, line);) {
    ++number;
    if (std::regex_search(line, marker)) lines.insert(number);
  }
  return lines;
}

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The line with the largest total of `column` over the rows `take` accepts (rows without a
// line are left out and counted), and that total.
struct TopLine {
  std::string file;
  long line = 0;
  double total = 0;
  double all_lines = 0;     // the total over every line
  double without_line = 0;  // taken rows whose line is unknown
};
TopLine LineWithMost(const nc::SourceFunction& function, const std::string& column,
                     const std::function<bool(const nc::SourceRow&)>& take) {
  std::map<std::pair<std::string, long>, double> totals;
  TopLine top;
  for (const nc::SourceRow& row : function.rows) {
    if (!take(row)) continue;
    const double value = row.Value(column).value_or(0);
    if (!row.line) {
      top.without_line += value;
      continue;
    }
    totals[{row.file, *row.line}] += value;
    top.all_lines += value;
  }
  for (const auto& [where, total] : totals) {
    if (total > top.total)
      top = {where.first, where.second, total, top.all_lines, top.without_line};
  }
  return top;
}

bool IsSass(const nc::SourceRow& row) { return row.offset.has_value(); }
bool IsSourceLine(const nc::SourceRow& row) { return !row.offset.has_value(); }
std::function<bool(const nc::SourceRow&)> SassWithMnemonicPrefix(
    std::vector<std::string> prefixes) {
  return [prefixes](const nc::SourceRow& row) {
    if (!row.offset) return false;
    const std::string mnemonic = nc::SassMnemonic(row.source);
    for (const std::string& prefix : prefixes) {
      if (mnemonic.rfind(prefix, 0) == 0) return true;
    }
    return false;
  };
}

// gpuscope profile --section SourceCounters -k <kernels> -- <program>: its report's path.
std::string ProfileReport(const ScratchDir& dir, const std::string& kernels,
                          const std::vector<std::string>& program) {
  CommandResult profile = RunGpuscopeProfile(dir, {"--section", "SourceCounters", "-k", kernels},
                                             program, kProfileTimeoutSeconds);
  SaveText(dir, "profile.stderr", profile.err);
  EXPECT_EQ(profile.exit_code, 0) << profile.Describe();
  std::string report;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().extension() == ".sqlite") report = entry.path();
  }
  EXPECT_FALSE(report.empty()) << "no report in " << dir.path();
  return report;
}

// `gpuscope source <report> --csv --print-source <view>`, parsed: one function per launch.
std::vector<nc::SourceFunction> SourcePage(const ScratchDir& dir, const std::string& report,
                                           const std::string& view) {
  if (report.empty()) return {};
  CommandResult source =
      RunCommand({GpuscopeBinary(), "source", report, "--csv", "--print-source", view});
  SaveText(dir, "source_" + view + ".csv", source.out);
  EXPECT_EQ(source.exit_code, 0) << source.Describe();
  auto parsed = nc::ParseGpuscopeSourceCsv(source.out);
  EXPECT_TRUE(parsed.ok()) << view << ": " << parsed.status().message();
  return parsed.ok() ? std::move(*parsed) : std::vector<nc::SourceFunction>{};
}

const nc::SourceFunction* Find(const std::vector<nc::SourceFunction>& functions,
                               const std::string& name) {
  for (const nc::SourceFunction& function : functions) {
    if (function.function_name == name) return &function;
  }
  return nullptr;
}

struct Planted {
  const char* marker;
  const char* kernel;
  const char* column;
  bool by_sass;  // rows of SASS taken by mnemonic, else the per-line rows
  std::vector<std::string> mnemonics;
};

const std::vector<Planted>& PlantedProblems() {
  static const std::vector<Planted> planted = {
      {"fp64-accumulator",
       "k_fp64_accumulator",
       "Thread Instructions Executed",
       true,
       {"DADD", "DMUL", "DFMA"}},
      {"uncoalesced",
       "k_uncoalesced_stride33",
       "L2 Theoretical Sectors Global Excessive",
       false,
       {}},
      {"bank-conflicts", "k_smem_bank_conflicts", "L1 Wavefronts Shared Excessive", false, {}},
      {"divergent-branch", "k_divergent_branches", "Divergent Branches", false, {}},
      {"local-memory", "k_local_spill", "Thread Instructions Executed", true, {"LDL"}},
  };
  return planted;
}

TEST(GpuSourceLines, EachPlantedProblemOfMetricsKernelsIsOnItsMarkedLine) {
  const std::string source_file = SourceDir() + "/examples/metrics/metrics_kernels.cu";
  std::string kernels = "regex:^(";
  for (const Planted& problem : PlantedProblems()) {
    if (kernels.back() != '(') kernels += '|';
    kernels += problem.kernel;
  }
  kernels += ")$";
  ScratchDir dir;
  const std::string report = ProfileReport(dir, kernels, {ExampleBinary("metrics_kernels")});
  const auto sass = SourcePage(dir, report, "sass");
  const auto lines = SourcePage(dir, report, "cuda");

  for (const Planted& problem : PlantedProblems()) {
    SCOPED_TRACE(problem.marker);
    const std::set<long> marked = MarkedLines(source_file, problem.marker);
    ASSERT_FALSE(marked.empty()) << "no `planted: " << problem.marker << "` in " << source_file;
    const nc::SourceFunction* function = Find(problem.by_sass ? sass : lines, problem.kernel);
    ASSERT_NE(function, nullptr) << problem.kernel << " is not on gpuscope's source page";
    const TopLine top = problem.by_sass ? LineWithMost(*function, problem.column,
                                                       SassWithMnemonicPrefix(problem.mnemonics))
                                        : LineWithMost(*function, problem.column, IsSourceLine);
    EXPECT_GT(top.total, 0) << "no " << problem.column << " on any line of " << problem.kernel;
    EXPECT_TRUE(EndsWith(top.file, "metrics_kernels.cu")) << top.file;
    EXPECT_TRUE(marked.count(top.line))
        << problem.kernel << ": the most " << problem.column << " (" << top.total << " of "
        << top.all_lines << ") is on line " << top.line
        << ", not a marked line (the first: " << *marked.begin() << ")";
    EXPECT_EQ(top.without_line, 0) << "with -lineinfo every instruction has a line";
  }
  // The per-line view of the same report adds up to its SASS view: every instruction's
  // count is on some line's row.
  for (const Planted& problem : PlantedProblems()) {
    const nc::SourceFunction* by_sass = Find(sass, problem.kernel);
    const nc::SourceFunction* by_line = Find(lines, problem.kernel);
    if (by_sass == nullptr || by_line == nullptr) continue;
    double sass_total = 0;
    double line_total = 0;
    for (const nc::SourceRow& row : by_sass->rows) {
      if (IsSass(row)) sass_total += row.Value("Instructions Executed").value_or(0);
    }
    for (const nc::SourceRow& row : by_line->rows) {
      if (IsSourceLine(row)) line_total += row.Value("Instructions Executed").value_or(0);
    }
    EXPECT_EQ(sass_total, line_total) << problem.kernel << ": instructions by SASS and by line";
  }
}

// Profiles reference 000's convolve kernel in `script` (a copy of numba_convolve.py) and
// expects its FP64 thread instructions on the `# planted: fp64-accumulator` line of that file.
void ExpectFp64AccumulatorOnItsLine(const ScratchDir& dir, const std::string& script) {
  const std::set<long> marked = MarkedLines(script, "fp64-accumulator");
  ASSERT_EQ(marked.size(), 1u) << "one `# planted: fp64-accumulator` line in " << script;
  const std::string report =
      ProfileReport(dir, "regex:convolve", {PythonInterpreter(), script, "--as-published"});
  const auto sass = SourcePage(dir, report, "sass");
  ASSERT_EQ(sass.size(), 1u) << "one convolve launch";
  const TopLine top = LineWithMost(sass.front(), "Thread Instructions Executed",
                                   SassWithMnemonicPrefix({"DADD", "DMUL", "DFMA"}));
  EXPECT_GT(top.total, 0) << "no FP64 arithmetic: was the accumulator float64?";
  EXPECT_TRUE(EndsWith(top.file, "numba_convolve.py"))
      << "the Python file (no line table?), not " << top.file;
  EXPECT_EQ(top.line, *marked.begin()) << "FP64 thread instructions: " << top.total << " of "
                                       << top.all_lines << " on line " << top.line;
}

// Reference 000 as published: Numba types the accumulator float64, and the FP64 adds are on
// the `s += ...` line of the Python file.
TEST(GpuSourceLines, NumbaAccumulatorOfReference000IsOnItsPythonLine) {
  REQUIRE_IMPORTABLE(kImportNumba, "numba.cuda");
  const std::string script = PythonExample("numba_convolve.py");
  ScratchDir dir;
  ExpectFp64AccumulatorOnItsLine(dir, script);
}

// Reference 000 as its user wrote it: `@cuda.jit` with no `lineinfo`. gpuscope's Python start-up
// hook (src/injection_library/python/sitecustomize.py) makes lineinfo=True the default, so
// the FP64 adds are still found on their Python line, with no change to the program.
TEST(GpuSourceLines, NumbaKernelWithoutLineInfoGetsItsLinesFromGpuscopesHook) {
  REQUIRE_IMPORTABLE(kImportNumba, "numba.cuda");
  ScratchDir dir;
  const std::string script = dir.path() + "/numba_convolve.py";
  {
    std::ifstream in(PythonExample("numba_convolve.py"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string with = "@cuda.jit(lineinfo=True)";
    const std::size_t at = text.find(with);
    ASSERT_NE(at, std::string::npos) << "the example's decorator changed";
    text.replace(at, with.size(), "@cuda.jit");
    std::ofstream(script) << text;
  }
  ExpectFp64AccumulatorOnItsLine(dir, script);
}

}  // namespace
}  // namespace gpuscope::gpu_test

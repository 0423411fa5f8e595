#include "traced_run.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace gpuscope::gpu_test {
namespace {

namespace fs = std::filesystem;

std::string FromEnvironmentOr(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return (value != nullptr && *value != '\0') ? value : fallback;
}

template <typename Row>
Status Collect(Status (store::ReportReader::*for_each)(const std::function<bool(const Row&)>&)
                   const,
               const store::ReportReader& reader, std::vector<Row>& rows) {
  return (reader.*for_each)([&rows](const Row& row) {
    rows.push_back(row);
    return true;
  });
}

bool IsReportFile(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.rfind("r_", 0) == 0 && path.extension() == ".sqlite";
}

}  // namespace

std::string BinaryDir() { return FromEnvironmentOr("GPUSCOPE_BINARY_DIR", GPUSCOPE_BINARY_DIR); }
std::string SourceDir() { return FromEnvironmentOr("GPUSCOPE_SOURCE_DIR", GPUSCOPE_SOURCE_DIR); }
std::string GpuscopeBinary() { return BinaryDir() + "/bin/gpuscope"; }
std::string ExampleBinary(const std::string& name) { return BinaryDir() + "/examples/" + name; }
std::string PythonExample(const std::string& file) {
  return SourceDir() + "/examples/python/" + file;
}
std::string PythonInterpreter() { return FromEnvironmentOr("GPUSCOPE_PYTHON", "python3"); }

ScratchDir::ScratchDir() {
  std::string pattern = FromEnvironmentOr("TMPDIR", "/tmp") + std::string("/gpuscope_gpu_XXXXXX");
  if (mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "cannot create a scratch directory from " << pattern;
    return;
  }
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  if (path_.empty()) return;
  const bool keep =
      std::getenv("GPUSCOPE_KEEP_TEST_FILES") != nullptr || ::testing::Test::HasFailure();
  if (keep) {
    std::fprintf(stderr, "gpu test: reports kept in %s\n", path_.c_str());
    return;
  }
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

TracedRun RunUnderGpuscope(const ScratchDir& dir, const std::vector<std::string>& program,
                           const std::vector<std::string>& gpuscope_options,
                           const Environment& environment, int timeout_seconds) {
  std::vector<std::string> argv = {GpuscopeBinary(), "run", "-o", dir.path() + "/r_%p.sqlite"};
  argv.insert(argv.end(), gpuscope_options.begin(), gpuscope_options.end());
  argv.push_back("--");
  argv.insert(argv.end(), program.begin(), program.end());

  TracedRun run;
  run.result = RunCommand(argv, environment, timeout_seconds);
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir.path(), error)) {
    if (entry.is_regular_file() && IsReportFile(entry.path())) {
      run.reports.push_back(entry.path().string());
    }
  }
  std::sort(run.reports.begin(), run.reports.end());
  return run;
}

std::map<std::string, int> Report::KernelCountsByName() const {
  std::map<std::string, int> counts;
  for (const auto& kernel : kernels) ++counts[kernel.name];
  return counts;
}

int Report::CountKernels(std::string_view name) const {
  return static_cast<int>(std::count_if(kernels.begin(), kernels.end(),
                                        [name](const Kernel& k) { return k.name == name; }));
}

int Report::CountApiCalls(std::string_view name) const {
  return static_cast<int>(std::count_if(api_calls.begin(), api_calls.end(),
                                        [name](const ApiCall& c) { return c.name == name; }));
}

std::vector<Kernel> Report::KernelsNamed(std::string_view name) const {
  std::vector<Kernel> named;
  for (const auto& kernel : kernels) {
    if (kernel.name == name) named.push_back(kernel);
  }
  return named;
}

Report LoadReport(const std::string& path) {
  Report report;
  auto opened = store::ReportReader::Open(path);
  if (!opened.ok()) {
    report.load_error = "cannot open " + path + ": " + opened.status().message();
    return report;
  }
  report.reader = std::move(opened.value());
  const store::ReportReader& reader = *report.reader;

  Status status = reader.ForEachKernel([&report](const store::KernelRow& row) {
    Kernel kernel{row.record, std::string(row.demangled_name),
                  std::string(row.record.mangled_name)};
    kernel.record.mangled_name = {};
    report.kernels.push_back(std::move(kernel));
    return true;
  });
  if (status.ok()) {
    status = reader.ForEachApiCall([&report](const store::ApiCallRow& row) {
      ApiCall call{row.record, std::string(row.record.name), row.nested_in_runtime};
      call.record.name = {};
      report.api_calls.push_back(std::move(call));
      return true;
    });
  }
  if (status.ok()) {
    status = reader.ForEachNvtx([&report](const model::NvtxRecord& row) {
      Nvtx nvtx{row, std::string(row.name), std::string(row.domain)};
      nvtx.record.name = {};
      nvtx.record.domain = {};
      report.nvtx.push_back(std::move(nvtx));
      return true;
    });
  }
  if (status.ok()) status = Collect(&store::ReportReader::ForEachMemcpy, reader, report.memcpys);
  if (status.ok()) status = Collect(&store::ReportReader::ForEachMemset, reader, report.memsets);
  if (status.ok()) status = Collect(&store::ReportReader::ForEachMemory, reader, report.memory);
  if (status.ok()) status = Collect(&store::ReportReader::ForEachSync, reader, report.syncs);
  if (!status.ok()) report.load_error = "cannot read " + path + ": " + status.message();
  return report;
}

std::uint32_t PidFromReportName(const std::string& path) {
  const std::string name = fs::path(path).stem().string();  // r_<pid>
  if (name.size() < 3 || name.rfind("r_", 0) != 0) return 0;
  const std::string digits = name.substr(2);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return 0;
  }
  return static_cast<std::uint32_t>(std::strtoul(digits.c_str(), nullptr, 10));
}

}  // namespace gpuscope::gpu_test

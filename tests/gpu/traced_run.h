// What every GPU test does: run an example under the real `gpuscope run`, then open the
// reports it wrote with store::ReportReader and look at the rows. Rows are copied out of the
// reader's callbacks (names included) so that tests can sort, group and count them freely.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "command_runner.h"
#include "model/records.h"
#include "store/report_reader.h"

namespace gpuscope::gpu_test {

// Where the build and the sources are: the environment variables GPUSCOPE_BINARY_DIR and
// GPUSCOPE_SOURCE_DIR when set (a build directory copied to another machine), else the
// directories this test was built from.
std::string BinaryDir();
std::string SourceDir();
std::string GpuscopeBinary();                        // <build>/bin/gpuscope
std::string ExampleBinary(const std::string& name);  // <build>/examples/<name>
std::string PythonExample(const std::string& file);  // <source>/examples/python/<file>
// The Python to run scripts with: GPUSCOPE_PYTHON, else "python3" from PATH.
std::string PythonInterpreter();

// A fresh directory for one test's reports. Removed at the end unless the test failed or
// GPUSCOPE_KEEP_TEST_FILES is set, so that a failure leaves its reports to look at.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct TracedRun {
  CommandResult result;              // of gpuscope itself
  std::vector<std::string> reports;  // r_*.sqlite written in the scratch directory, sorted
};

// gpuscope run -o <dir>/r_%p.sqlite <gpuscope_options> -- <program...>
TracedRun RunUnderGpuscope(const ScratchDir& dir, const std::vector<std::string>& program,
                           const std::vector<std::string>& gpuscope_options = {},
                           const Environment& environment = {}, int timeout_seconds = 180);

struct Kernel {
  model::KernelRecord record;  // record.mangled_name is cleared: use the strings below
  std::string name;            // demangled
  std::string mangled;
};
struct ApiCall {
  model::ApiCallRecord record;  // record.name is cleared: use `name`
  std::string name;
  bool nested_in_runtime = false;
};
struct Nvtx {
  model::NvtxRecord record;  // record.name/domain are cleared: use the strings below
  std::string name;
  std::string domain;
};

// One report, opened and read whole (the examples are small).
struct Report {
  std::unique_ptr<store::ReportReader> reader;
  std::vector<Kernel> kernels;  // in start order
  std::vector<model::MemcpyRecord> memcpys;
  std::vector<model::MemsetRecord> memsets;
  std::vector<ApiCall> api_calls;
  std::vector<Nvtx> nvtx;
  std::vector<model::MemoryRecord> memory;
  std::vector<model::SyncRecord> syncs;
  std::string load_error;  // empty when everything loaded

  bool ok() const { return load_error.empty(); }
  std::map<std::string, int> KernelCountsByName() const;
  int CountKernels(std::string_view name) const;
  int CountApiCalls(std::string_view name) const;
  std::vector<Kernel> KernelsNamed(std::string_view name) const;
};

Report LoadReport(const std::string& path);

// The pid in a report's file name r_<pid>.sqlite (0 when it does not have that form).
std::uint32_t PidFromReportName(const std::string& path);

}  // namespace gpuscope::gpu_test

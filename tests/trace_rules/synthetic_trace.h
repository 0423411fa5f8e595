// Synthetic reports for the trace-rule tests, written through the real store::ReportWriter:
// each test plants one pattern and checks that exactly the right rule fires on it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/trace_rules/run_trace_rules.h"
#include "model/records.h"
#include "store/report_writer.h"

namespace gpuscope::analysis::testing {

// An absolute CUPTI time; every time below is an offset in ns from it.
inline constexpr model::Timestamp kT0 = 1'700'000'000'000'000'000;
inline constexpr std::uint64_t kUs = 1'000;
inline constexpr std::uint64_t kMs = 1'000'000;

// A fresh directory, removed with its contents at destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

struct CopySpec {
  model::CopyKind kind = model::CopyKind::kHtoD;
  model::MemoryKind host = model::MemoryKind::kPinned;  // the host side's memory
  bool is_async = true;
  std::uint64_t bytes = 1 << 20;
  std::uint32_t stream = 7;
};

// Each call adds one row and returns its correlation id (new per row unless given).
class SyntheticTrace {
 public:
  explicit SyntheticTrace(const std::string& path);

  std::uint32_t Kernel(std::uint64_t start, std::uint64_t duration, std::uint32_t stream = 7);
  std::uint32_t Copy(std::uint64_t start, std::uint64_t duration, const CopySpec& spec = {});
  std::uint32_t Memset(std::uint64_t start, std::uint64_t duration, bool is_async);
  void Api(const std::string& name, std::uint64_t start, std::uint64_t duration,
           std::uint32_t correlation);
  void Memory(model::MemoryOp op, std::uint64_t time, std::uint64_t address, std::uint64_t bytes,
              std::uint32_t correlation);
  // Marks the report as one of `gpuscope profile`: launch `correlation` was replayed.
  void ProfiledLaunch(std::uint32_t correlation, std::uint64_t start, std::uint64_t duration);
  std::uint32_t NextCorrelation() { return ++correlation_; }

  // Flushes and closes the report; fails the test on error.
  void Close();

 private:
  std::unique_ptr<store::ReportWriter> writer_;
  std::vector<std::string> names_;  // API names outlive the writer's calls
  std::uint32_t correlation_ = 100;
};

// Opens the report and runs the rules; fails the test on error.
std::vector<Finding> FindingsOf(const std::string& path);
// The rule ids of the findings, in order.
std::vector<std::string> RuleIds(const std::vector<Finding>& findings);

}  // namespace gpuscope::analysis::testing

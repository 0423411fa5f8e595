#include "synthetic_trace.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "store/report_reader.h"

namespace gpuscope::analysis::testing {

ScratchDir::ScratchDir() {
  const char* base = getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr ? base : "/tmp") + "/trace_rules_XXXXXX";
  char* made = mkdtemp(pattern.data());
  EXPECT_NE(made, nullptr);
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

SyntheticTrace::SyntheticTrace(const std::string& path) {
  StatusOr<std::unique_ptr<store::ReportWriter>> created = store::ReportWriter::Create(path, false);
  EXPECT_TRUE(created.ok()) << created.status().message();
  if (!created.ok()) return;
  writer_ = std::move(created.value());
  model::ProcessRecord process;
  process.pid = 4242;
  process.parent_pid = 1;
  process.hostname = "node";
  process.command_line = "./planted";
  process.start = kT0;
  writer_->OnProcess(process);
}

std::uint32_t SyntheticTrace::Kernel(std::uint64_t start, std::uint64_t duration,
                                     std::uint32_t stream) {
  model::KernelRecord kernel;
  kernel.start = kT0 + start;
  kernel.end = kernel.start + duration;
  kernel.stream_id = stream;
  kernel.correlation_id = NextCorrelation();
  kernel.grid_x = kernel.grid_y = kernel.grid_z = 1;
  kernel.block_x = 32;
  kernel.block_y = kernel.block_z = 1;
  kernel.mangled_name = "_Z4workv";
  writer_->OnKernel(kernel);
  return kernel.correlation_id;
}

std::uint32_t SyntheticTrace::Copy(std::uint64_t start, std::uint64_t duration,
                                   const CopySpec& spec) {
  model::MemcpyRecord copy;
  copy.start = kT0 + start;
  copy.end = copy.start + duration;
  copy.stream_id = spec.stream;
  copy.correlation_id = NextCorrelation();
  copy.copy_kind = spec.kind;
  bool to_device = spec.kind == model::CopyKind::kHtoD;
  copy.src_kind = to_device ? spec.host : model::MemoryKind::kDevice;
  copy.dst_kind = to_device ? model::MemoryKind::kDevice : spec.host;
  if (spec.kind == model::CopyKind::kDtoD)
    copy.src_kind = copy.dst_kind = model::MemoryKind::kDevice;
  copy.is_async = spec.is_async;
  copy.bytes = spec.bytes;
  writer_->OnMemcpy(copy);
  return copy.correlation_id;
}

std::uint32_t SyntheticTrace::Memset(std::uint64_t start, std::uint64_t duration, bool is_async) {
  model::MemsetRecord memset;
  memset.start = kT0 + start;
  memset.end = memset.start + duration;
  memset.stream_id = 7;
  memset.correlation_id = NextCorrelation();
  memset.memory_kind = model::MemoryKind::kDevice;
  memset.is_async = is_async;
  memset.bytes = 4096;
  writer_->OnMemset(memset);
  return memset.correlation_id;
}

void SyntheticTrace::Api(const std::string& name, std::uint64_t start, std::uint64_t duration,
                         std::uint32_t correlation) {
  model::ApiCallRecord call;
  call.domain = model::ApiDomain::kRuntime;
  call.name = name;
  call.start = kT0 + start;
  call.end = call.start + duration;
  call.process_id = 4242;
  call.thread_id = 1;
  call.correlation_id = correlation;
  writer_->OnApiCall(call, false);
}

void SyntheticTrace::Memory(model::MemoryOp op, std::uint64_t time, std::uint64_t address,
                            std::uint64_t bytes, std::uint32_t correlation) {
  model::MemoryRecord record;
  record.timestamp = kT0 + time;
  record.op = op;
  record.memory_kind = model::MemoryKind::kDevice;
  record.address = address;
  record.bytes = bytes;
  record.stream_id = 0xFFFFFFFF;
  record.correlation_id = correlation;
  writer_->OnMemory(record);
}

void SyntheticTrace::ProfiledLaunch(std::uint32_t correlation, std::uint64_t start,
                                    std::uint64_t duration) {
  model::ProfiledKernelRecord record;
  record.correlation_id = correlation;
  record.start = kT0 + start;
  record.end = record.start + duration;
  record.mangled_name = "_Z4workv";
  record.chip = "GH100";
  record.passes = 40;
  record.outcome = model::ProfileOutcome::kReplayFailed;
  record.message = "not measured (test)";
  writer_->OnProfiledKernel(record);
}

void SyntheticTrace::Close() {
  writer_->Flush();
  Status closed = writer_->Close();
  ASSERT_TRUE(closed.ok()) << closed.message();
}

std::vector<Finding> FindingsOf(const std::string& path) {
  StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  if (!reader.ok()) return {};
  StatusOr<std::vector<Finding>> findings = trace_rules::RunTraceRules(*reader.value());
  EXPECT_TRUE(findings.ok()) << findings.status().message();
  if (!findings.ok()) return {};
  return std::move(findings.value());
}

std::vector<std::string> RuleIds(const std::vector<Finding>& findings) {
  std::vector<std::string> ids;
  for (const Finding& finding : findings) ids.push_back(finding.rule_id);
  return ids;
}

}  // namespace gpuscope::analysis::testing

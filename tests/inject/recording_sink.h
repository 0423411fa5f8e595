// An in-memory RecordSink for tests: keeps a copy of every record (strings owned), so
// tests can assert every field after the buffers the views pointed into are gone.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "model/record_sink.h"
#include "model/records.h"

namespace gpuscope::inject::testing {

template <typename Record>
struct Owned {
  Record record;
  std::string text;   // the record's main string (name / mangled name / command line)
  std::string text2;  // its second string (domain / uuid / hostname)
};

struct RecordedProcess {
  model::ProcessRecord record;
  std::string text;   // command line
  std::string text2;  // hostname
  std::string boot_id;
  std::string rank_variable;
};

struct ApiCall {
  model::ApiCallRecord record;
  std::string name;
  bool nested = false;
};

struct RecordedInstructionValue {
  std::uint64_t cubin_crc = 0;
  std::string function;
  std::uint64_t pc_offset = 0;
  std::string metric;
  std::uint64_t value = 0;
};

struct RecordedProfile {
  model::ProfiledKernelRecord record;
  std::string name;
  std::string chip;
  std::string message;
  std::vector<std::uint8_t> counter_data;
  std::string source_message;
  std::vector<RecordedInstructionValue> instruction_values;
  std::vector<std::pair<std::uint64_t, std::vector<std::uint8_t>>> cubins;
};

class RecordingSink : public model::RecordSink {
 public:
  void OnProcess(const model::ProcessRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    processes.push_back({r, std::string(r.command_line), std::string(r.hostname),
                         std::string(r.boot_id), std::string(r.rank_variable)});
  }
  void OnDevice(const model::DeviceRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    devices.push_back({r, std::string(r.name), std::string(r.uuid)});
  }
  void OnContext(const model::ContextRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    contexts.push_back(r);
  }
  void OnStream(const model::StreamRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    streams.push_back(r);
  }
  void OnKernel(const model::KernelRecord& r) override {
    Delay();
    std::lock_guard<std::mutex> lock(mutex_);
    kernels.push_back({r, std::string(r.mangled_name), {}});
  }
  void OnMemcpy(const model::MemcpyRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    memcpys.push_back(r);
  }
  void OnMemset(const model::MemsetRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    memsets.push_back(r);
  }
  void OnApiCall(const model::ApiCallRecord& r, bool nested) override {
    std::lock_guard<std::mutex> lock(mutex_);
    api_calls.push_back({r, std::string(r.name), nested});
  }
  void OnTraceScope(const model::TraceScopeRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    trace_scope = {std::string(r.trace), std::string(r.api_capture),
                   std::string(r.cuda_graph_trace)};
  }
  void OnApiCallCount(const model::ApiCallCountRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    api_call_counts.push_back({r, std::string(r.name), {}});
  }
  void OnGraphLaunch(const model::GraphLaunchRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    graph_launches.push_back(r);
  }
  void OnMemory(const model::MemoryRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    memory.push_back(r);
  }
  void OnSync(const model::SyncRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    syncs.push_back(r);
  }
  void OnNvtx(const model::NvtxRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    nvtx.push_back({r, std::string(r.name), std::string(r.domain)});
  }
  void OnOverhead(const model::OverheadRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    overheads.push_back({r, std::string(r.name), {}});
  }
  void OnProfiledKernel(const model::ProfiledKernelRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    RecordedProfile profile{r,
                            std::string(r.mangled_name),
                            std::string(r.chip),
                            std::string(r.message),
                            std::vector<std::uint8_t>(r.counter_data.begin(), r.counter_data.end()),
                            std::string(r.source.message),
                            {},
                            {}};
    for (const model::InstructionValue& v : r.instruction_values) {
      profile.instruction_values.push_back(
          {v.cubin_crc, std::string(v.function_name), v.pc_offset, std::string(v.metric), v.value});
    }
    for (const model::CubinImage& c : r.cubins) {
      profile.cubins.emplace_back(c.crc, std::vector<std::uint8_t>(c.image.begin(), c.image.end()));
    }
    profiled_kernels.push_back(std::move(profile));
  }
  void OnClockSample(const model::ClockSampleRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    clock_samples.push_back(r);
  }
  void OnCounters(const model::CollectionCounters& c) override {
    std::lock_guard<std::mutex> lock(mutex_);
    counters = c;
    ++counter_updates;
  }
  void Flush() override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++flushes;
    kernels_at_last_flush = kernels.size();
  }

  // Makes OnKernel slow, to let the pool fill up behind a lagging writer.
  std::atomic<int> kernel_delay_us{0};

  // Everything below is read by tests after a commit was waited for (or under lock()).
  std::vector<RecordedProcess> processes;
  std::vector<Owned<model::DeviceRecord>> devices;
  std::vector<model::ContextRecord> contexts;
  std::vector<model::StreamRecord> streams;
  std::vector<Owned<model::KernelRecord>> kernels;
  std::vector<model::MemcpyRecord> memcpys;
  std::vector<model::MemsetRecord> memsets;
  std::vector<ApiCall> api_calls;
  std::vector<Owned<model::ApiCallCountRecord>> api_call_counts;
  std::vector<std::string> trace_scope;  // trace, api_capture, cuda_graph_trace
  std::vector<model::GraphLaunchRecord> graph_launches;
  std::vector<model::MemoryRecord> memory;
  std::vector<model::SyncRecord> syncs;
  std::vector<Owned<model::NvtxRecord>> nvtx;
  std::vector<Owned<model::OverheadRecord>> overheads;
  std::vector<RecordedProfile> profiled_kernels;
  std::vector<model::ClockSampleRecord> clock_samples;
  model::CollectionCounters counters;
  int counter_updates = 0;
  int flushes = 0;
  std::size_t kernels_at_last_flush = 0;

  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mutex_); }

 private:
  void Delay() {
    if (int us = kernel_delay_us.load()) std::this_thread::sleep_for(std::chrono::microseconds(us));
  }
  std::mutex mutex_;
};

}  // namespace gpuscope::inject::testing

// writer_bench [records] [--keep PATH]: writes a launch-bound trace of `records` event
// records (default 2,000,000: half cudaLaunchKernel API rows, half kernel rows) through the
// production ReportWriter and prints the sustained records per second and the finalized
// report's bytes per event. Targets (issue 2): >= 1,000,000 records/s, <= 64 bytes/event.
//
// The synthetic records are generated on the fly; their cost is measured separately with a
// sink that discards them and printed, so the writer's own rate can be told apart.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "model/record_sink.h"
#include "store/report_writer.h"
#include "store/testing/synthetic_trace.h"

namespace {

using Clock = std::chrono::steady_clock;

// Discards everything: measures what generating the records costs.
class NullSink final : public gpuscope::model::RecordSink {
 public:
  void OnProcess(const gpuscope::model::ProcessRecord&) override {}
  void OnDevice(const gpuscope::model::DeviceRecord&) override {}
  void OnContext(const gpuscope::model::ContextRecord&) override {}
  void OnProfiledKernel(const gpuscope::model::ProfiledKernelRecord&) override {}
  void OnClockSample(const gpuscope::model::ClockSampleRecord&) override {}
  void OnStream(const gpuscope::model::StreamRecord&) override {}
  void OnKernel(const gpuscope::model::KernelRecord& r) override { checksum += r.start; }
  void OnMemcpy(const gpuscope::model::MemcpyRecord&) override {}
  void OnMemset(const gpuscope::model::MemsetRecord&) override {}
  void OnApiCall(const gpuscope::model::ApiCallRecord& r, bool) override { checksum += r.end; }
  void OnMemory(const gpuscope::model::MemoryRecord&) override {}
  void OnTraceScope(const gpuscope::model::TraceScopeRecord&) override {}
  void OnApiCallCount(const gpuscope::model::ApiCallCountRecord&) override {}
  void OnGraphLaunch(const gpuscope::model::GraphLaunchRecord&) override {}
  void OnSync(const gpuscope::model::SyncRecord&) override {}
  void OnNvtx(const gpuscope::model::NvtxRecord&) override {}
  void OnOverhead(const gpuscope::model::OverheadRecord&) override {}
  void OnCounters(const gpuscope::model::CollectionCounters&) override {}
  void Flush() override {}
  std::uint64_t checksum = 0;
};

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t records = 2'000'000;
  std::string path = "/tmp/writer_bench." + std::to_string(getpid()) + ".sqlite";
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--keep") == 0 && i + 1 < argc) {
      path = argv[++i];
      keep = true;
    } else if (char* end = nullptr; (records = std::strtoull(argv[i], &end, 10)) == 0 || *end) {
      std::fprintf(stderr, "usage: writer_bench [records] [--keep PATH]\n");
      return 2;
    }
  }

  gpuscope::store::testing::SyntheticTraceOptions options;
  options.kernels = records / 2;
  // The injection library flushes every 500 ms; at 1M records/s that is 500k records.
  options.flush_every_kernels = 250'000;

  NullSink null_sink;
  Clock::time_point generate_start = Clock::now();
  gpuscope::store::testing::WriteSyntheticTrace(null_sink, options);
  double generate_seconds = Seconds(generate_start);

  Clock::time_point write_start = Clock::now();
  auto created = gpuscope::store::ReportWriter::Create(path, /*overwrite=*/true);
  if (!created.ok()) {
    std::fprintf(stderr, "writer_bench: %s\n", created.status().message().c_str());
    return 1;
  }
  gpuscope::store::ReportWriter& writer = *created.value();
  gpuscope::store::testing::WriteSyntheticTrace(writer, options);
  writer.Flush();
  double write_seconds = Seconds(write_start);
  gpuscope::Status closed = writer.Close();
  double total_seconds = Seconds(write_start);
  if (!closed.ok()) {
    std::fprintf(stderr, "writer_bench: %s\n", closed.message().c_str());
    return 1;
  }

  struct stat info {};
  stat(path.c_str(), &info);
  const double events = static_cast<double>(options.kernels * 2);
  std::printf("records                  %llu (%llu kernels + %llu cudaLaunchKernel calls)\n",
              static_cast<unsigned long long>(options.kernels * 2),
              static_cast<unsigned long long>(options.kernels),
              static_cast<unsigned long long>(options.kernels));
  std::printf("generating records alone %.3f s\n", generate_seconds);
  std::printf("writing + flushes        %.3f s  -> %.0f records/s\n", write_seconds,
              events / write_seconds);
  std::printf("including close/finalize %.3f s  -> %.0f records/s\n", total_seconds,
              events / total_seconds);
  std::printf("report size              %lld bytes -> %.2f bytes/event\n",
              static_cast<long long>(info.st_size), static_cast<double>(info.st_size) / events);
  if (!keep) std::remove(path.c_str());  // closed cleanly: no -wal/-shm files are left
  return 0;
}

// reader_bench <report>: times the report reader alone: Open, then ForEachKernel and
// ForEachApiCall over every row (what `gpuscope stats` needs for its kernel and API
// tables), and prints rows per second. The stats target (issue 2) is a report of
// 10,000,000 kernels, with their API calls, in under 3 s in total.
#include <chrono>
#include <cstdint>
#include <cstdio>

#include "store/report_reader.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: reader_bench <report>\n");
    return 2;
  }
  Clock::time_point open_start = Clock::now();
  auto opened = gpuscope::store::ReportReader::Open(argv[1]);
  if (!opened.ok()) {
    std::fprintf(stderr, "reader_bench: %s\n", opened.status().message().c_str());
    return 1;
  }
  const gpuscope::store::ReportReader& reader = *opened.value();
  double open_seconds = Seconds(open_start);

  // Sums keep the compiler from dropping the reads.
  std::uint64_t kernels = 0, kernel_ns = 0, calls = 0, call_ns = 0;
  Clock::time_point kernel_start = Clock::now();
  gpuscope::Status status = reader.ForEachKernel([&](const gpuscope::store::KernelRow& row) {
    ++kernels;
    kernel_ns += row.record.end - row.record.start + row.name_id;
    return true;
  });
  double kernel_seconds = Seconds(kernel_start);
  if (status.ok()) {
    Clock::time_point api_start = Clock::now();
    status = reader.ForEachApiCall([&](const gpuscope::store::ApiCallRow& row) {
      ++calls;
      call_ns += row.record.end - row.record.start + row.name_id;
      return true;
    });
    double api_seconds = Seconds(api_start);
    std::printf("open            %.3f s\n", open_seconds);
    std::printf("ForEachKernel   %.3f s  %llu rows  %.0f rows/s\n", kernel_seconds,
                static_cast<unsigned long long>(kernels), kernels / kernel_seconds);
    std::printf("ForEachApiCall  %.3f s  %llu rows  %.0f rows/s\n", api_seconds,
                static_cast<unsigned long long>(calls), calls / api_seconds);
    std::printf("total           %.3f s  (checksum %llu)\n",
                open_seconds + kernel_seconds + api_seconds,
                static_cast<unsigned long long>(kernel_ns ^ call_ns));
  }
  if (!status.ok()) {
    std::fprintf(stderr, "reader_bench: %s\n", status.message().c_str());
    return 1;
  }
  return 0;
}

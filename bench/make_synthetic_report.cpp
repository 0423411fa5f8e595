// make_synthetic_report <path> <n_kernels>: writes a finalized report of a launch-bound
// trace (n kernels of a few dozen distinct names, each with its cudaLaunchKernel call)
// through the production writer, e.g. for the `gpuscope stats` benchmark on 10,000,000
// kernels. Overwrites <path>.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "store/report_writer.h"
#include "store/testing/synthetic_trace.h"

int main(int argc, char** argv) {
  char* end = nullptr;
  std::uint64_t kernels = argc == 3 ? std::strtoull(argv[2], &end, 10) : 0;
  if (argc != 3 || end == argv[2] || *end != '\0') {
    std::fprintf(stderr, "usage: make_synthetic_report <path> <n_kernels>\n");
    return 2;
  }
  auto created = gpuscope::store::ReportWriter::Create(argv[1], /*overwrite=*/true);
  if (!created.ok()) {
    std::fprintf(stderr, "make_synthetic_report: %s\n", created.status().message().c_str());
    return 1;
  }
  gpuscope::store::testing::SyntheticTraceOptions options;
  options.kernels = kernels;
  options.flush_every_kernels = 250'000;
  gpuscope::store::testing::WriteSyntheticTrace(*created.value(), options);
  gpuscope::Status closed = created.value()->Close();
  if (!closed.ok()) {
    std::fprintf(stderr, "make_synthetic_report: %s\n", closed.message().c_str());
    return 1;
  }
  std::printf("%s: %llu kernels, %llu API calls\n", argv[1],
              static_cast<unsigned long long>(kernels), static_cast<unsigned long long>(kernels));
  return 0;
}

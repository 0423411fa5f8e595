// launch_loop [N]: N tiny back-to-back kernels (default 100,000) on one stream, then one
// synchronize. Launch-bound on purpose: it measures what tracing adds per launch. Prints
// "kernels <N>", "loop_ns <wall time of the loop and the sync>" and "total_ns <wall time
// of main, CUDA initialisation included>".
#include <chrono>
#include <cstdio>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

// One thread, one stream: the launches are ordered, so a plain increment counts them.
__global__ void tinyKernel(int* counter) { *counter += 1; }

namespace {

long long NanosecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              start)
      .count();
}

}  // namespace

int main(int argc, char** argv) {
  const auto main_start = std::chrono::steady_clock::now();
  if (argc > 2) {
    std::fprintf(stderr, "usage: launch_loop [N]\n");
    return ex::kExitUsage;
  }
  const long n =
      argc == 2 ? ex::ParsePositiveArg(argv[1], "launch_loop [N]") : ex::kLaunchLoopDefault;

  int* counter = nullptr;
  CHECK_CUDA(cudaMalloc(&counter, sizeof(int)));
  CHECK_CUDA(cudaMemset(counter, 0, sizeof(int)));
  // Load the kernel's module now (CUDA loads modules lazily, at first use), so that the
  // timed loop holds launches only.
  cudaFuncAttributes attributes;
  CHECK_CUDA(cudaFuncGetAttributes(&attributes, tinyKernel));
  CHECK_CUDA(cudaDeviceSynchronize());

  const auto loop_start = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) tinyKernel<<<1, 1>>>(counter);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaDeviceSynchronize());
  const long long loop_ns = NanosecondsSince(loop_start);

  int counted = 0;
  CHECK_CUDA(cudaMemcpy(&counted, counter, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(counter));
  if (counted != n) {
    std::fprintf(stderr, "launch_loop: counted %d kernels, launched %ld\n", counted, n);
    return 1;
  }
  std::printf("kernels %ld\nloop_ns %lld\ntotal_ns %lld\n", n, loop_ns,
              NanosecondsSince(main_start));
  return 0;
}

// vector_add [N]: c = a + b on N floats (default 2^20). gpuscope's "main job" example: two
// HtoD copies, one kernel, a device synchronize, one DtoH copy, checked on the host.
#include <cstdio>
#include <vector>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: vector_add [N]\n");
    return ex::kExitUsage;
  }
  const int n = static_cast<int>(argc == 2 ? ex::ParsePositiveArg(argv[1], "vector_add [N]")
                                           : ex::kVectorAddDefaultElements);
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);

  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 2.0f * static_cast<float>(i);
  }
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  CHECK_CUDA(cudaMalloc(&da, bytes));
  CHECK_CUDA(cudaMalloc(&db, bytes));
  CHECK_CUDA(cudaMalloc(&dc, bytes));
  CHECK_CUDA(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
  const int blocks = (n + ex::kVectorAddBlock - 1) / ex::kVectorAddBlock;
  vectorAdd<<<blocks, ex::kVectorAddBlock>>>(da, db, dc, n);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));

  for (int i = 0; i < n; ++i) {
    if (c[i] != 3.0f * static_cast<float>(i)) {
      std::fprintf(stderr, "vector_add: wrong result at %d: %f\n", i, c[i]);
      return 1;
    }
  }
  std::printf("vector_add: %d elements ok\n", n);
  return 0;
}

// Reference 000's workflow in one program: a 13x13 convolution of a float image whose
// accumulator is accidentally a double (`accumulator_fix double`), and the same kernel with the
// fix (`accumulator_fix float`). Profile both, then `gpuscope diff` shows the FP64
// instructions going to zero and the time saved:
//   gpuscope profile --set full -o before.sqlite -- accumulator_fix double
//   gpuscope profile --set full -o after.sqlite -- accumulator_fix float
//   gpuscope diff before.sqlite after.sqlite
// The kernel has the same name and launch configuration in both, so diff matches it.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "cuda_check.h"

namespace {

constexpr int kSide = 1024;
constexpr int kMask = 13;

template <typename Accumulator>
__device__ float Convolve(const float* image, const float* mask, int row, int col) {
  constexpr int kHalf = kMask / 2;
  Accumulator sum = 0;
  for (int k = 0; k < kMask; ++k) {
    for (int l = 0; l < kMask; ++l) {
      const int r = row - k + kHalf;
      const int c = col - l + kHalf;
      if (r >= 0 && r < kSide && c >= 0 && c < kSide) {
        sum += mask[k * kMask + l] * image[r * kSide + c];
      }
    }
  }
  return static_cast<float>(sum);
}

// One kernel name for both versions: `use_double` picks the accumulator.
__global__ void k_convolve(const float* image, const float* mask, float* result, bool use_double) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= kSide || col >= kSide) return;
  result[row * kSide + col] =
      use_double ? Convolve<double>(image, mask, row, col) : Convolve<float>(image, mask, row, col);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "double") != 0 && std::strcmp(argv[1], "float") != 0)) {
    std::fprintf(stderr, "usage: accumulator_fix double|float\n");
    return 2;
  }
  const bool use_double = std::strcmp(argv[1], "double") == 0;
  std::vector<float> image(kSide * kSide), mask(kMask * kMask);
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<float>(i % 251) / 251.0f;
  for (size_t i = 0; i < mask.size(); ++i) mask[i] = 1.0f / static_cast<float>(mask.size());
  float *d_image = nullptr, *d_mask = nullptr, *d_result = nullptr;
  CHECK_CUDA(cudaMalloc(&d_image, image.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_mask, mask.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_result, image.size() * sizeof(float)));
  CHECK_CUDA(
      cudaMemcpy(d_image, image.data(), image.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_mask, mask.data(), mask.size() * sizeof(float), cudaMemcpyHostToDevice));
  const dim3 block(32, 8);
  const dim3 grid(kSide / block.x, kSide / block.y);
  k_convolve<<<grid, block>>>(d_image, d_mask, d_result, use_double);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> result(image.size());
  CHECK_CUDA(
      cudaMemcpy(result.data(), d_result, result.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double total = 0;
  for (float v : result) total += v;
  std::printf("accumulator %s: sum of the result %.3f\n", argv[1], total);
  CHECK_CUDA(cudaFree(d_image));
  CHECK_CUDA(cudaFree(d_mask));
  CHECK_CUDA(cudaFree(d_result));
  return 0;
}

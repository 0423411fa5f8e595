// streams: four streams, each copying its own chunk of pinned host memory to the device,
// scaling it with a kernel and copying it back, all asynchronously; then one synchronous
// copy from pageable memory and one cudaMemset. Exercises stream ids, copy kinds, memory
// kinds and the async flag in the report.
#include <cstdio>
#include <vector>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__global__ void scaleChunk(float* data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

int main() {
  constexpr int kChunk = ex::kStreamChunkElements;
  float* host = nullptr;  // pinned, so that the async copies really are asynchronous
  CHECK_CUDA(cudaMallocHost(&host, ex::kStreamCount * ex::kStreamChunkBytes));
  float* device = nullptr;
  CHECK_CUDA(cudaMalloc(&device, ex::kStreamCount * ex::kStreamChunkBytes));
  for (int i = 0; i < ex::kStreamCount * kChunk; ++i) host[i] = 1.0f;

  cudaStream_t streams[ex::kStreamCount];
  for (auto& stream : streams)
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (int s = 0; s < ex::kStreamCount; ++s) {
    float* h = host + s * kChunk;
    float* d = device + s * kChunk;
    CHECK_CUDA(cudaMemcpyAsync(d, h, ex::kStreamChunkBytes, cudaMemcpyHostToDevice, streams[s]));
    scaleChunk<<<(kChunk + ex::kStreamBlock - 1) / ex::kStreamBlock, ex::kStreamBlock, 0,
                 streams[s]>>>(d, kChunk, static_cast<float>(s + 2));
    CHECK_LAUNCH();
    CHECK_CUDA(cudaMemcpyAsync(h, d, ex::kStreamChunkBytes, cudaMemcpyDeviceToHost, streams[s]));
  }
  for (auto& stream : streams) CHECK_CUDA(cudaStreamSynchronize(stream));

  // Pageable memory: the runtime stages it, and the copy is synchronous.
  std::vector<char> pageable(ex::kStreamPageableBytes, 1);
  char* scratch = nullptr;
  CHECK_CUDA(cudaMalloc(&scratch, ex::kStreamPageableBytes));
  CHECK_CUDA(cudaMemcpy(scratch, pageable.data(), pageable.size(), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(scratch, ex::kStreamMemsetValue, ex::kStreamMemsetBytes));
  CHECK_CUDA(cudaDeviceSynchronize());

  for (int s = 0; s < ex::kStreamCount; ++s) {
    for (int i = 0; i < kChunk; ++i) {
      if (host[s * kChunk + i] != static_cast<float>(s + 2)) {
        std::fprintf(stderr, "streams: wrong result in stream %d at %d\n", s, i);
        return 1;
      }
    }
  }
  for (auto& stream : streams) CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFree(scratch));
  CHECK_CUDA(cudaFree(device));
  CHECK_CUDA(cudaFreeHost(host));
  std::printf("streams: %d streams ok\n", ex::kStreamCount);
  return 0;
}

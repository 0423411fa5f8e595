// graph_replay: captures one memset and K kernels on a stream into a CUDA graph,
// instantiates it once and launches it R times. Every kernel and memset that runs comes
// from the graph, so every one of them must carry the graph's id in the report.
// `graph_replay [R]`: R launches instead of the tests' few, timed: also prints "launches <R>"
// and "loop_ns <wall time of the launches and the final synchronize>" (the graph-replay loop
// of scripts/bench-tracer-cost.sh).
#include <chrono>
#include <cstdio>
#include <vector>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__global__ void graphStep(int* data, int n, int increment) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += increment;
}

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: graph_replay [launches]\n");
    return ex::kExitUsage;
  }
  const long launches =
      argc == 2 ? ex::ParsePositiveArg(argv[1], "graph_replay [launches]") : ex::kGraphLaunches;
  constexpr int kBlock = 256;
  constexpr int kN = ex::kGraphElements;
  int* data = nullptr;
  CHECK_CUDA(cudaMalloc(&data, kN * sizeof(int)));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  // Nothing runs during capture: the memset and kernels only become graph nodes.
  cudaGraph_t graph;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK_CUDA(cudaMemsetAsync(data, 0, kN * sizeof(int), stream));
  for (int k = 1; k <= ex::kGraphKernels; ++k) {
    graphStep<<<(kN + kBlock - 1) / kBlock, kBlock, 0, stream>>>(data, kN, k);
    CHECK_LAUNCH();
  }
  CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  // Upload the graph first so that the timed loop holds launches only.
  CHECK_CUDA(cudaGraphUpload(exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  const auto loop_start = std::chrono::steady_clock::now();
  for (long r = 0; r < launches; ++r) CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  const long long loop_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::steady_clock::now() - loop_start)
                                .count();

  // The memset restarts every replay, so the result is the sum of one replay's increments.
  std::vector<int> host(kN);
  CHECK_CUDA(cudaMemcpy(host.data(), data, kN * sizeof(int), cudaMemcpyDeviceToHost));
  const int expected = ex::kGraphKernels * (ex::kGraphKernels + 1) / 2;
  for (int i = 0; i < kN; ++i) {
    if (host[i] != expected) {
      std::fprintf(stderr, "graph_replay: data[%d] = %d, expected %d\n", i, host[i], expected);
      return 1;
    }
  }
  CHECK_CUDA(cudaGraphExecDestroy(exec));
  CHECK_CUDA(cudaGraphDestroy(graph));
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFree(data));
  std::printf("graph_replay: %d kernels x %ld launches ok\n", ex::kGraphKernels, launches);
  if (argc == 2) std::printf("launches %ld\nloop_ns %lld\n", launches, loop_ns);
  return 0;
}

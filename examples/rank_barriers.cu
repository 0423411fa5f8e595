// rank_barriers --barrier-file PATH [ROUNDS]: one rank of a multi-process job on one GPU
// (expected_counts.h). Started once per rank with RANK and WORLD_SIZE set, the way torchrun
// starts the ranks of a training job, each under its own `gpuscope run`: the GPU test of
// aligning and merging the reports of several ranks needs events that are simultaneous
// across processes, and a host barrier gives them without NCCL or a second GPU.
//
// The barrier: a file of counters that every rank maps (MAP_SHARED); barrier k is counter
// k, which each rank increments once and then spins on until all ranks have, so the ranks
// leave within the time a cache line takes to travel between cores. A rank that never
// arrives makes the others give up after kBarrierTimeout (exit kExitCudaError + 1), never hang.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

// Outside the anonymous namespace: their names are expected_counts.h's.
__global__ void rankWork(float* data, int n, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = data[i];
  for (int k = 0; k < iterations; ++k) x = x * 0.999f + 0.001f;
  data[i] = x;
}

__global__ void rankMarker(int round, int* seen) {
  if (threadIdx.x == 0) seen[0] = round;
}

namespace {

constexpr char kUsage[] =
    "rank_barriers --barrier-file PATH [ROUNDS] (with RANK and WORLD_SIZE set)";
constexpr int kExitBarrierTimeout = ex::kExitCudaError + 1;
constexpr auto kBarrierTimeout = std::chrono::seconds(60);
constexpr std::size_t kBarrierFileBytes = 4096;
using Counter = std::atomic<std::uint32_t>;
static_assert(Counter::is_always_lock_free, "counters shared between processes must be lock-free");

int EnvironmentNumber(const char* name) {
  const char* text = std::getenv(name);
  char* end = nullptr;
  const long value = text != nullptr ? std::strtol(text, &end, 10) : -1;
  if (text == nullptr || end == text || *end != '\0' || value < 0 || value > 1024) {
    std::fprintf(stderr, "%s is not set to a number from 0 to 1024\nusage: %s\n", name, kUsage);
    std::exit(ex::kExitUsage);
  }
  return static_cast<int>(value);
}

// The counters, in a file every rank maps; a fresh (zero-filled) file per job.
Counter* MapBarriers(const char* path) {
  const int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0 || ftruncate(fd, kBarrierFileBytes) != 0) {
    std::fprintf(stderr, "cannot open the barrier file %s: %s\n", path, std::strerror(errno));
    std::exit(ex::kExitUsage);
  }
  void* mapped = mmap(nullptr, kBarrierFileBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (mapped == MAP_FAILED) {
    std::fprintf(stderr, "cannot map the barrier file %s: %s\n", path, std::strerror(errno));
    std::exit(ex::kExitUsage);
  }
  return static_cast<Counter*>(mapped);
}

void Barrier(Counter* counters, int index, int world_size, int rank) {
  Counter& counter = counters[index];
  counter.fetch_add(1, std::memory_order_acq_rel);
  const auto deadline = std::chrono::steady_clock::now() + kBarrierTimeout;
  // Spinning, not sleeping: the ranks must leave the barrier at the same moment.
  for (std::uint64_t spins = 0;
       counter.load(std::memory_order_acquire) < static_cast<std::uint32_t>(world_size); ++spins) {
    if ((spins & 0xffff) == 0 && std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "rank_barriers rank %d: barrier %d timed out (%u of %d ranks)\n", rank,
                   index, counter.load(), world_size);
      std::exit(kExitBarrierTimeout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4 || std::string_view(argv[1]) != ex::kRankBarrierFileArgument) {
    std::fprintf(stderr, "usage: %s\n", kUsage);
    return ex::kExitUsage;
  }
  const int rounds =
      argc == 4 ? static_cast<int>(ex::ParsePositiveArg(argv[3], kUsage)) : ex::kRankBarrierRounds;
  const int rank = EnvironmentNumber("RANK");
  const int world_size = EnvironmentNumber("WORLD_SIZE");
  if (world_size < 1 || rank >= world_size ||
      rounds + 1 > static_cast<int>(kBarrierFileBytes / sizeof(Counter))) {
    std::fprintf(stderr, "RANK must be below WORLD_SIZE, and at most %zu rounds\nusage: %s\n",
                 kBarrierFileBytes / sizeof(Counter) - 1, kUsage);
    return ex::kExitUsage;
  }
  Counter* counters = MapBarriers(argv[2]);

  constexpr int kElements = 1 << 16;
  float* data = nullptr;
  int* seen = nullptr;
  CHECK_CUDA(cudaMalloc(&data, kElements * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&seen, sizeof(int)));
  CHECK_CUDA(cudaMemset(data, 0, kElements * sizeof(float)));
  CHECK_CUDA(cudaDeviceSynchronize());
  Barrier(counters, 0, world_size, rank);  // every rank's CUDA is ready
  for (int round = 1; round <= rounds; ++round) {
    // Each rank works for a time of its own, so that they arrive apart.
    rankWork<<<kElements / 256, 256>>>(data, kElements, 2000 * (rank + 1));
    CHECK_LAUNCH();
    CHECK_CUDA(cudaDeviceSynchronize());
    std::this_thread::sleep_for(std::chrono::milliseconds(ex::kRankStaggerMs * rank));
    Barrier(counters, round, world_size, rank);
    rankMarker<<<1, 32>>>(round, seen);  // simultaneous on every rank
    CHECK_LAUNCH();
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  CHECK_CUDA(cudaFree(seen));
  CHECK_CUDA(cudaFree(data));
  std::printf("rank_barriers rank %d of %d: %d rounds\n", rank, world_size, rounds);
  return 0;
}

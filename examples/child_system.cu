// child_system: launches A kernels, then runs itself with "--child" through system() (so a
// shell sits between the two), and the child launches B kernels of another name. gpuscope
// follows children by default, so one run gives two reports with these counts.
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__global__ void parentKernel(int* counter) { atomicAdd(counter, 1); }
__global__ void childKernel(int* counter) { atomicAdd(counter, 1); }

namespace {

template <typename Kernel>
int LaunchAndCount(Kernel kernel, int count) {
  int* counter = nullptr;
  CHECK_CUDA(cudaMalloc(&counter, sizeof(int)));
  CHECK_CUDA(cudaMemset(counter, 0, sizeof(int)));
  for (int i = 0; i < count; ++i) {
    kernel<<<1, 1>>>(counter);
    CHECK_LAUNCH();
  }
  int result = 0;
  CHECK_CUDA(cudaMemcpy(&result, counter, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(counter));
  return result;
}

// The shell command that runs this same executable as the child, quoted for /bin/sh.
std::string ChildCommand() {
  char self[PATH_MAX] = {};
  ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length <= 0) {
    std::fprintf(stderr, "child_system: cannot read /proc/self/exe: %s\n", std::strerror(errno));
    std::exit(ex::kExitCudaError);
  }
  std::string quoted = "'";
  for (char c : std::string(self, length))
    quoted += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return quoted + "' " + std::string(ex::kChildArgument);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == ex::kChildArgument) {
    int counted = LaunchAndCount(childKernel, ex::kChildKernels);
    std::printf("child_system child: %d kernels\n", counted);
    return counted == ex::kChildKernels ? 0 : 1;
  }
  if (argc != 1) {
    std::fprintf(stderr, "usage: child_system\n");
    return ex::kExitUsage;
  }
  int counted = LaunchAndCount(parentKernel, ex::kParentKernels);
  std::printf("child_system parent: %d kernels\n", counted);
  std::fflush(stdout);  // keep the parent's line before the child's in a shared pipe

  int status = std::system(ChildCommand().c_str());
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "child_system: child failed (status %d)\n", status);
    return 1;
  }
  return counted == ex::kParentKernels ? 0 : 1;
}

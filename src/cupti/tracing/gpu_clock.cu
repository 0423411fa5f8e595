// The kernel of gpuscope's GPU clock pairs (gpu_clock.h). Not compiled by the build: the
// injection carries its PTX (gpu_clock_ptx.cpp), made from this file with
//   nvcc -ptx -arch=compute_75 src/cupti/tracing/gpu_clock.cu -o -
// and tests/cupti/tracing/gpu_clock_ptx_test.cpp checks that the two agree wherever nvcc exists.
// One thread reads the GPU's nanosecond timer (%globaltimer, the clock CUPTI's GPU times come
// from) and writes it to pinned host memory, made visible to the host at once (the system
// fence), where the host polls for it.
extern "C" __global__ void gpuscope_clock_read(volatile unsigned long long* host_slot) {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  *host_slot = now;
  __threadfence_system();
}

// The kernel of gpuscope's L2 flush (l2_flush.h). Not compiled by the build: the injection
// carries its PTX (l2_flush_ptx.cpp), made from this file with
//   nvcc -ptx -arch=compute_75 src/cupti/profiler/l2_flush.cu -o -
// and tests/cupti/profiler/l2_flush_ptx_test.cpp checks that the two agree wherever nvcc exists.
// It reads a buffer twice the size of L2 with loads that allocate in L2 only (.cg): every line
// the measured kernel could have found in L2 is evicted, dirty ones written back now rather
// than during the measured pass, and L2 is left holding clean lines of this buffer. It writes
// nothing (the store is never taken: no sum of the zeroed buffer is 1234.5).
extern "C" __global__ void gpuscope_l2_flush(const float4* p, unsigned long long n, float* sink) {
  float acc = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    float4 v = __ldcg(p + i);
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 1234.5f) *sink = acc;
}

__global__ void acc(const float* a, double* out, int n) {
  double s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += a[i] * 2.0f;
  out[threadIdx.x] = s;
}

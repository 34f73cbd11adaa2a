// A user kernel that calls gpuprims::vector_copy and does its own work in the same launch.
#include <gpuprims/copy.cuh>

#include <cstdio>
#include <vector>

// Copy the signal, then every thread marks its own slot of a second array: two jobs, one launch.
__global__ void copy_and_mark(const float* in, float* out, int* marks, std::size_t n) {
  gpuprims::vector_copy<4>(in, out, n);  // 16-byte accesses; any n, any alignment
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    marks[i] = 1;
  }
}

int main() {
  const std::size_t n = 1000003;
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) {
    host[i] = static_cast<float>(i % 977) * 0.5f;
  }
  float *in = nullptr, *out = nullptr;
  int* marks = nullptr;
  if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&out, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&marks, n * sizeof(int)) != cudaSuccess) {
    std::fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0xFF,
             n * sizeof(float));  // NaN poison: an unwritten element cannot compare equal
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  copy_and_mark<<<blocks, 256>>>(in, out, marks, n);
  if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "kernel failed\n");
    return 1;
  }
  std::vector<float> back(n);
  cudaMemcpy(back.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(out);
  cudaFree(marks);
  for (std::size_t i = 0; i < n; ++i) {
    if (back[i] != host[i]) {
      std::printf("mismatch at %zu\n", i);
      return 1;
    }
  }
  std::printf("copied %zu floats from a user kernel\n", n);
  return 0;
}

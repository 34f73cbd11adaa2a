// gpuprims::copy from the host: the widest legal access is picked from the pointers, so a copy
// between buffers offset by 3 floats still moves 16-byte vectors after peeling the first element.
#include <gpuprims/copy.cuh>

#include "example_check.cuh"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main() {
  const std::size_t n = (std::size_t{1} << 24) + 5;  // not a multiple of any vector width
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) {
    host[i] = static_cast<float>(std::rand()) / RAND_MAX;
  }

  float *src = nullptr, *dst = nullptr;
  CHECK(cudaMalloc(&src, (n + 3) * sizeof(float)));
  CHECK(cudaMalloc(&dst, (n + 3) * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // Both start 3 floats (12 bytes) past a 256-byte boundary: mutually aligned, so copy peels one
  // element and moves the rest as 16-byte vectors.
  CHECK(cudaMemcpyAsync(src + 3, host.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
  CHECK(gpuprims::copy(src + 3, dst + 3, n, stream));

  // Argument errors come back before anything is launched.
  if (gpuprims::copy(src, src + 1, n, stream) != cudaErrorInvalidValue) {
    std::fprintf(stderr, "overlapping copy was not rejected\n");
    return 1;
  }

  std::vector<float> back(n);
  CHECK(cudaMemcpyAsync(back.data(), dst + 3, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  for (std::size_t i = 0; i < n; ++i) {
    if (back[i] != host[i]) {
      std::fprintf(stderr, "mismatch at %zu\n", i);
      return 1;
    }
  }
  std::printf("gpuprims::copy moved %zu floats correctly\n", n);
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(src));
  CHECK(cudaFree(dst));
  return 0;
}

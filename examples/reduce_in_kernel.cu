// block_reduce inside your own kernel: per-row maxima of a matrix whose rows are not a multiple of
// the block, with the partial last tile of each row handled by num_valid.
#include <gpuprims/reduce.cuh>

#include "example_check.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int block = 256;

// One block per row: each thread folds a strided share of the row, then the block reduces.
__global__ void row_max(const float* in, float* out, int cols) {
  using reduce_t = gpuprims::block_reduce<block, gpuprims::maximum<float>>;
  __shared__ reduce_t::storage storage;
  const float* row = in + static_cast<std::size_t>(blockIdx.x) * cols;
  float mine = 0.0f;
  for (int c = threadIdx.x; c < cols; c += block) {
    mine = c == static_cast<int>(threadIdx.x) ? row[c] : fmaxf(mine, row[c]);
  }
  const int owners = cols < block ? cols : block;  // threads that saw at least one element
  const float m = reduce_t(storage).reduce(mine, owners);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = m;
  }
}

int main() {
  const int rows = 1000, cols = 3001;
  std::vector<float> host(static_cast<std::size_t>(rows) * cols);
  for (auto& x : host) {
    x = static_cast<float>(std::rand()) / RAND_MAX - 0.5f;
  }
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, host.size() * sizeof(float)));
  CHECK(cudaMalloc(&out, rows * sizeof(float)));
  CHECK(cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  row_max<<<rows, block>>>(in, out, cols);
  CHECK(cudaGetLastError());
  std::vector<float> got(rows);
  CHECK(cudaMemcpy(got.data(), out, rows * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r) {
    float m = host[static_cast<std::size_t>(r) * cols];
    for (int c = 1; c < cols; ++c) {
      m = std::max(m, host[static_cast<std::size_t>(r) * cols + c]);
    }
    if (got[r] != m) {
      std::fprintf(stderr, "row %d: got %f, expected %f\n", r, got[r], m);
      return 1;
    }
  }
  std::printf("maxima of %d rows of %d floats: correct\n", rows, cols);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}

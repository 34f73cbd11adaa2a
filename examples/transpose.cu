// gpuprims::transpose from the host, and tiled_transpose from a user kernel, on the same matrix.
#include <gpuprims/transpose.cuh>

#include "example_check.cuh"

#include <cstdio>
#include <cstdlib>
#include <vector>

using tile_t =
    gpuprims::tiled_transpose<32, 1, float>;  // blocks of 32 x 8 threads, 4 elements each

// One block per 32 x 32 tile: the work gpuprims::transpose launches, inside your own kernel.
__global__ void my_transpose(const float* in, float* out, std::size_t rows, std::size_t cols) {
  __shared__ tile_t::storage tile;
  tile_t(tile).transpose(in, cols, out, rows, rows, cols, blockIdx.y * std::size_t{32},
                         blockIdx.x * std::size_t{32});
}

int main() {
  const std::size_t rows = 1000, cols = 777;  // not multiples of the tile
  std::vector<float> host(rows * cols);
  for (auto& x : host) {
    x = static_cast<float>(std::rand()) / RAND_MAX;
  }
  float *in = nullptr, *out = nullptr, *mine = nullptr;
  CHECK(cudaMalloc(&in, host.size() * sizeof(float)));
  CHECK(cudaMalloc(&out, host.size() * sizeof(float)));
  CHECK(cudaMalloc(&mine, host.size() * sizeof(float)));
  CHECK(cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));

  CHECK(gpuprims::transpose(in, out, rows, cols));
  const dim3 grid((cols + 31) / 32, (rows + 31) / 32);
  my_transpose<<<grid, dim3(tile_t::block_x, tile_t::block_y)>>>(in, mine, rows, cols);
  CHECK(cudaGetLastError());

  std::vector<float> a(host.size()), b(host.size());
  CHECK(cudaMemcpy(a.data(), out, a.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b.data(), mine, b.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      if (a[c * rows + r] != host[r * cols + c] || b[c * rows + r] != host[r * cols + c]) {
        std::fprintf(stderr, "mismatch at (%zu, %zu)\n", r, c);
        return 1;
      }
    }
  }
  std::printf("transposed a %zu x %zu matrix twice, correctly\n", rows, cols);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(mine));
  return 0;
}

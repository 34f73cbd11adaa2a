// A numerically stable row softmax in one user kernel: one warp per row, the row's maximum and then
// its sum of exponentials from logical_warp_reduce (every lane gets the result, so no shared
// memory and no barrier), checked against a double-precision CPU reference.
#include <gpuprims/reduce.cuh>

#include "example_check.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int warps_per_block = 8;

// out[r][c] = exp(in[r][c] - max_r) / sum_c' exp(in[r][c'] - max_r): subtracting the row's maximum
// keeps every exponential in (0, 1], so large inputs do not overflow.
__global__ void row_softmax(const float* in, float* out, int rows, int cols) {
  const int row = blockIdx.x * warps_per_block + static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  if (row >= rows) {
    return;  // the whole warp leaves together: the reductions below stay converged
  }
  const float* x = in + static_cast<std::size_t>(row) * cols;
  float* y = out + static_cast<std::size_t>(row) * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) {
    m = fmaxf(m, x[c]);
  }
  m = gpuprims::logical_warp_reduce<32>(m, gpuprims::maximum<float>{});
  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    sum += __expf(x[c] - m);
  }
  sum = gpuprims::logical_warp_reduce<32>(sum, gpuprims::plus<float>{});
  const float scale = 1.0f / sum;
  for (int c = lane; c < cols; c += 32) {
    y[c] = __expf(x[c] - m) * scale;
  }
}

int main() {
  const int rows = 1000, cols = 777;
  std::vector<float> host(static_cast<std::size_t>(rows) * cols);
  for (auto& v : host) {
    v = 40.0f * (static_cast<float>(std::rand()) / RAND_MAX - 0.5f);  // exp(20) alone: 5e8
  }
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, host.size() * sizeof(float)));
  CHECK(cudaMalloc(&out, host.size() * sizeof(float)));
  CHECK(cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0xFF, host.size() * sizeof(float)));  // NaN: an unwritten output shows
  row_softmax<<<(rows + warps_per_block - 1) / warps_per_block, 32 * warps_per_block>>>(in, out,
                                                                                        rows, cols);
  CHECK(cudaGetLastError());
  std::vector<float> got(host.size());
  CHECK(cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r) {
    const float* x = host.data() + static_cast<std::size_t>(r) * cols;
    double m = x[0], sum = 0;
    for (int c = 1; c < cols; ++c) {
      m = std::fmax(m, x[c]);
    }
    for (int c = 0; c < cols; ++c) {
      sum += std::exp(x[c] - m);
    }
    for (int c = 0; c < cols; ++c) {
      const double ref = std::exp(x[c] - m) / sum;
      const double g = got[static_cast<std::size_t>(r) * cols + c];
      if (!(std::fabs(g - ref) <= 1e-5 * ref + 1e-12)) {
        std::fprintf(stderr, "row %d col %d: got %g, expected %g\n", r, c, g, ref);
        return 1;
      }
    }
  }
  std::printf("softmax of %d rows of %d floats: correct\n", rows, cols);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}

// An explicit solver for the 2D heat equation u_t = u_xx + u_yy on the periodic unit square,
// stepping gpuprims::apply_stencil2d_fused four steps per pass over memory (temporal blocking):
// each step is u <- u + r (u_E + u_W + u_N + u_S - 4 u), r = dt / h^2 <= 1/4 for stability, i.e.
// the 5-point star with weights r around and 1 - 4r at the centre. The same run through
// apply_stencil2d one step per pass must give the same bits; from u(x, y, 0) = sin(2 pi x)
// sin(2 pi y) the exact solution is exp(-8 pi^2 t) sin(2 pi x) sin(2 pi y). The program prints the
// error and fails if the two paths differ or the error is not small.
#include <gpuprims/stencil.cuh>

#include "example_check.cuh"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

int main() {
  const double pi = 3.14159265358979323846;
  const std::size_t n = 256;  // points per side
  const double h = 1.0 / n, r = 0.2, dt = r * h * h, t_end = 0.002;
  constexpr int fused_steps = 4;
  const int passes = static_cast<int>(std::lround(t_end / dt / fused_steps));
  const int steps = passes * fused_steps;

  std::vector<float> u(n * n);
  for (std::size_t y = 0; y < n; ++y) {
    for (std::size_t x = 0; x < n; ++x) {
      u[y * n + x] = static_cast<float>(std::sin(2 * pi * x * h) * std::sin(2 * pi * y * h));
    }
  }
  const std::size_t bytes = n * n * sizeof(float);
  float *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&c, bytes));
  CHECK(cudaMalloc(&d, bytes));
  CHECK(cudaMemcpy(a, u.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(c, u.data(), bytes, cudaMemcpyHostToDevice));
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreate(&stream));

  const auto rf = static_cast<float>(r);
  const gpuprims::stencil2d_weights<float, 1> heat{{{0, rf, 0}, {rf, 1 - 4 * rf, rf}, {0, rf, 0}}};
  const gpuprims::boundary2d periodic = gpuprims::boundary::periodic();
  using gpuprims::stencil_shape;
  for (int p = 0; p < passes; ++p) {  // four steps a launch, queued on the stream
    CHECK((gpuprims::apply_stencil2d_fused<1, stencil_shape::star, fused_steps>(
        a, b, n, n, n, n, heat, periodic, stream)));
    std::swap(a, b);
  }
  for (int s = 0; s < steps; ++s) {  // the same steps, one a launch
    CHECK((gpuprims::apply_stencil2d<1, stencil_shape::star>(c, d, n, n, n, n, heat, periodic,
                                                             stream)));
    std::swap(c, d);
  }
  std::vector<float> single(n * n);
  CHECK(cudaMemcpyAsync(u.data(), a, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(single.data(), c, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));

  const bool same = std::memcmp(u.data(), single.data(), bytes) == 0;
  const double t = steps * dt, decay = std::exp(-8 * pi * pi * t);
  double error = 0;
  for (std::size_t y = 0; y < n; ++y) {
    for (std::size_t x = 0; x < n; ++x) {
      const double exact = decay * std::sin(2 * pi * x * h) * std::sin(2 * pi * y * h);
      error = std::fmax(error, std::fabs(u[y * n + x] - exact));
    }
  }
  std::printf(
      "heat2d: %zu x %zu points, %d steps (%d passes of %d) to t = %.4f: amplitude %.6f, max error "
      "against exp(-8 pi^2 t) sin(2 pi x) sin(2 pi y): %.2e; the same bits as one step a pass: "
      "%s\n",
      n, n, steps, passes, fused_steps, t, decay, error, same ? "yes" : "NO");
  CHECK(cudaStreamDestroy(stream));
  for (float* p : {a, b, c, d}) {
    CHECK(cudaFree(p));
  }
  return same && error < 1e-3 ? 0 : 1;
}

// An explicit solver for the 1D heat equation u_t = u_xx on [0, 1) with periodic ends, stepping
// gpuprims::apply_stencil1d: each step is u <- u + r (u[i-1] - 2 u[i] + u[i+1]), r = dt / dx^2 <=
// 1/2 for stability, i.e. weights (r, 1 - 2r, r). From u(x, 0) = sin(2 pi x) the exact solution is
// exp(-4 pi^2 t) sin(2 pi x); the program prints the error at the end and fails if it is not small.
#include <gpuprims/stencil.cuh>

#include "example_check.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

int main() {
  const double pi = 3.14159265358979323846;
  const std::size_t n = 256;
  const double dx = 1.0 / n, r = 0.25, dt = r * dx * dx, t_end = 0.01;
  const int steps = static_cast<int>(std::lround(t_end / dt));

  std::vector<float> u(n);
  for (std::size_t i = 0; i < n; ++i) {
    u[i] = static_cast<float>(std::sin(2 * pi * i * dx));
  }
  float *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMemcpy(a, u.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreate(&stream));

  const auto rf = static_cast<float>(r);
  const gpuprims::stencil_weights<float, 1> heat{{rf, 1 - 2 * rf, rf}};
  for (int s = 0; s < steps; ++s) {  // launches queue on the stream: no synchronisation per step
    CHECK(gpuprims::apply_stencil1d<1>(a, b, n, heat, gpuprims::boundary::periodic(), stream));
    std::swap(a, b);
  }
  CHECK(cudaMemcpyAsync(u.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));

  const double t = steps * dt, decay = std::exp(-4 * pi * pi * t);
  double error = 0;
  for (std::size_t i = 0; i < n; ++i) {
    error = std::fmax(error, std::fabs(u[i] - decay * std::sin(2 * pi * i * dx)));
  }
  std::printf(
      "heat1d: %zu points, %d steps to t = %.4f: amplitude %.6f, max error against exp(-4 pi^2 t) "
      "sin(2 pi x): %.2e\n",
      n, steps, t, decay, error);
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return error < 1e-3 ? 0 : 1;
}

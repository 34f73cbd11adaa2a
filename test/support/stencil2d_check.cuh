// The 2D stencil tests' checking code: check_case runs a call (apply_stencil2d, a rung of the 2D
// ladder, a test kernel) on fresh random inputs and weights into a poisoned output and compares
// every output's bits with the host's evaluation of the library's per-point order
// (detail::stencil2d_point over detail::fetch2d), and every padding element with poison.
#pragma once

#include <gpuprims/ladder/stencil.cuh>
#include <gpuprims/stencil.cuh>

#include "support/stencil_check.cuh"
#include "support/test_support.cuh"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace gpuprims::test {

using gpuprims::boundary2d;
using gpuprims::stencil_shape;

// The neighbour (dy, dx) of (x, y) in a host grid, by the library's own boundary fetch.
template <class T>
struct neighbours {
  const T* grid;
  std::size_t pitch;
  std::int64_t x, y, cols, rows;
  boundary2d b;
  __host__ __device__ T operator()(int dy, int dx) const {
    return gpuprims::detail::fetch2d(grid, pitch, x + dx, y + dy, cols, rows, b);
  }
};

// apply_stencil2d<Rad, Shape> itself, or a rung of the 2D ladder (one grid at a time).
template <int Rad, stencil_shape Shape>
struct library_call {
  template <class T, class Weights>
  cudaError_t operator()(const T* in, T* out, std::size_t batch, std::size_t rows, std::size_t cols,
                         std::size_t in_pitch, std::size_t out_pitch, std::size_t in_stride,
                         std::size_t out_stride, const Weights& w, const boundary2d& b) const {
    return gpuprims::apply_stencil2d<Rad, Shape>(in, out, batch, rows, cols, in_pitch, out_pitch,
                                                 in_stride, out_stride, w, b);
  }
};

template <int Rad, stencil_shape Shape, gpuprims::ladder::stencil2d_rung Rung>
struct rung_call {
  template <class T, class Weights>
  cudaError_t operator()(const T* in, T* out, std::size_t batch, std::size_t rows, std::size_t cols,
                         std::size_t in_pitch, std::size_t out_pitch, std::size_t in_stride,
                         std::size_t out_stride, const Weights& w, const boundary2d& b) const {
    for (std::size_t g = 0; g < batch; ++g) {
      const cudaError_t e = gpuprims::ladder::apply_stencil2d<Rad, Shape, Rung>(
          in + g * in_stride, out + g * out_stride, rows, cols, in_pitch, out_pitch, w, b);
      if (e != cudaSuccess) {
        return e;
      }
    }
    return cudaSuccess;
  }
};

template <int Rad, stencil_shape Shape, class T, class Call = library_call<Rad, Shape>>
void check_case(std::size_t batch, std::size_t rows, std::size_t cols, std::size_t in_pitch,
                std::size_t out_pitch, const boundary2d& b, Call call = {},
                std::size_t x_first = 0) {
  std::mt19937_64& g = rng();
  std::uniform_real_distribution<double> dist(-1, 1);
  gpuprims::stencil2d_weights<T, Rad> w{};
  for (auto& row : w.w) {
    for (auto& x : row) {
      x = static_cast<T>(dist(g));
    }
  }
  const std::size_t in_stride = rows * in_pitch + 5, out_stride = rows * out_pitch + 3;
  const std::size_t in_size = batch * in_stride, out_size = batch * out_stride;
  std::vector<T> in(in_size);
  for (auto& x : in) {
    x = static_cast<T>(dist(g));
  }
  device_buffer d_in(in_size * sizeof(T)), d_out(out_size * sizeof(T));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(d_in.data(), in.data(), in_size * sizeof(T), cudaMemcpyHostToDevice));
  d_out.poison();
  INFO((Shape == stencil_shape::star ? "star" : "box")
       << ", radius " << Rad << (sizeof(T) == 4 ? ", float" : ", double") << ", " << batch << " x "
       << rows << " x " << cols << " (pitches " << in_pitch << ", " << out_pitch << "), x "
       << mode_name(b.x.mode) << ", y " << mode_name(b.y.mode));
  GPUPRIMS_CHECK_CUDA(call(reinterpret_cast<const T*>(d_in.data()),
                           reinterpret_cast<T*>(d_out.data()), batch, rows, cols, in_pitch,
                           out_pitch, in_stride, out_stride, w, b));
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> raw = d_out.download();
  std::size_t wrong = 0, touched = 0;
  for (std::size_t gi = 0; gi < batch; ++gi) {
    const T* grid = in.data() + gi * in_stride;
    for (std::size_t y = 0; y < rows; ++y) {
      for (std::size_t x = 0; x < out_pitch; ++x) {
        const unsigned char* at = raw.data() + (gi * out_stride + y * out_pitch + x) * sizeof(T);
        if (x >= cols || x < x_first) {  // padding, or columns the call does not cover: untouched
          touched += first_unpoisoned(at, sizeof(T)) == sizeof(T) ? 0 : 1;
          continue;
        }
        const T want = gpuprims::detail::stencil2d_point<Rad, Shape, T>(
            w, neighbours<T>{grid, in_pitch, static_cast<std::int64_t>(x),
                             static_cast<std::int64_t>(y), static_cast<std::int64_t>(cols),
                             static_cast<std::int64_t>(rows), b});
        wrong += std::memcmp(at, &want, sizeof(T)) == 0 ? 0 : 1;
      }
    }
  }
  CHECK(wrong == 0);
  CHECK(touched == 0);
}

}  // namespace gpuprims::test

// The 3D stencil tests' checking code: check_case runs a call (apply_stencil3d under a tuning, a
// rung of the 3D ladder, a test kernel) on fresh random inputs and weights into a poisoned output
// and compares every output's bits with the host's evaluation of the library's per-point order
// (detail::stencil3d_point over detail::fetch3d), and every padding element with poison.
#pragma once

#include <gpuprims/ladder/stencil.cuh>
#include <gpuprims/stencil.cuh>

#include "support/test_support.cuh"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace gpuprims::test {

using gpuprims::boundary3d;
using gpuprims::stencil_shape;

// The neighbour (dz, dy, dx) of (x, y, z) in a host grid, by the library's own boundary fetch.
template <class T>
struct neighbours {
  const T* grid;
  std::size_t pitch_y, pitch_z;
  std::int64_t x, y, z, cols, rows, depth;
  boundary3d b;
  __host__ __device__ T operator()(int dz, int dy, int dx) const {
    return gpuprims::detail::fetch3d(grid, pitch_y, pitch_z, x + dx, y + dy, z + dz, cols, rows,
                                     depth, b);
  }
};

struct shape3 {
  std::size_t depth, rows, cols;
};

// apply_stencil3d<Rad, Shape> under a tuning (the library's by default).
template <int Rad, stencil_shape Shape, class Tuning = gpuprims::stencil3d_tuning>
struct library_call {
  template <class T, class Weights>
  cudaError_t operator()(const T* in, T* out, std::size_t batch, shape3 s, std::size_t in_py,
                         std::size_t in_pz, std::size_t out_py, std::size_t out_pz,
                         std::size_t in_stride, std::size_t out_stride, const Weights& w,
                         const boundary3d& b) const {
    return gpuprims::apply_stencil3d<Rad, Shape, Tuning>(in, out, batch, s.depth, s.rows, s.cols,
                                                         in_py, in_pz, out_py, out_pz, in_stride,
                                                         out_stride, w, b);
  }
};

// A rung of the 3D ladder (one grid at a time).
template <int Rad, stencil_shape Shape, gpuprims::ladder::stencil3d_rung Rung>
struct rung3d_call {
  template <class T, class Weights>
  cudaError_t operator()(const T* in, T* out, std::size_t batch, shape3 s, std::size_t in_py,
                         std::size_t in_pz, std::size_t out_py, std::size_t out_pz,
                         std::size_t in_stride, std::size_t out_stride, const Weights& w,
                         const boundary3d& b) const {
    for (std::size_t g = 0; g < batch; ++g) {
      const cudaError_t e = gpuprims::ladder::apply_stencil3d<Rad, Shape, Rung>(
          in + g * in_stride, out + g * out_stride, s.depth, s.rows, s.cols, in_py, in_pz, out_py,
          out_pz, w, b);
      if (e != cudaSuccess) {
        return e;
      }
    }
    return cudaSuccess;
  }
};

// `batch` grids; the pitches pad each row by `pad_x` and each plane by `pad_y` rows.
template <int Rad, stencil_shape Shape, class T, class Call = library_call<Rad, Shape>>
void check_case(std::size_t batch, shape3 s, std::size_t pad_x, std::size_t pad_y,
                const boundary3d& b, Call call = {}) {
  std::mt19937_64& g = rng();
  std::uniform_real_distribution<double> dist(-1, 1);
  gpuprims::stencil3d_weights<T, Rad> w{};
  for (auto& plane : w.w) {
    for (auto& row : plane) {
      for (auto& x : row) {
        x = static_cast<T>(dist(g));
      }
    }
  }
  const std::size_t in_py = s.cols + pad_x, out_py = s.cols + 2 * pad_x;
  const std::size_t in_pz = (s.rows + pad_y) * in_py, out_pz = s.rows * out_py + pad_y;
  const std::size_t in_stride = s.depth * in_pz + 5, out_stride = s.depth * out_pz + 3;
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
       << s.depth << " x " << s.rows << " x " << s.cols << ", pads " << pad_x << "/" << pad_y
       << ", modes x " << static_cast<int>(b.x.mode) << " y " << static_cast<int>(b.y.mode) << " z "
       << static_cast<int>(b.z.mode));
  GPUPRIMS_CHECK_CUDA(call(reinterpret_cast<const T*>(d_in.data()),
                           reinterpret_cast<T*>(d_out.data()), batch, s, in_py, in_pz, out_py,
                           out_pz, in_stride, out_stride, w, b));
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> raw = d_out.download();
  std::size_t wrong = 0, touched = 0, inside = 0;
  for (std::size_t i = 0; i < out_size; ++i) {
    const std::size_t gi = i / out_stride, r = i % out_stride;
    const std::size_t z = r / out_pz, y = r % out_pz / out_py, x = r % out_pz % out_py;
    const unsigned char* at = raw.data() + i * sizeof(T);
    if (z >= s.depth || y >= s.rows || x >= s.cols) {  // padding: untouched
      touched += first_unpoisoned(at, sizeof(T)) == sizeof(T) ? 0 : 1;
      continue;
    }
    ++inside;
    const T want = gpuprims::detail::stencil3d_point<Rad, Shape, T>(
        w, neighbours<T>{in.data() + gi * in_stride, in_py, in_pz, static_cast<std::int64_t>(x),
                         static_cast<std::int64_t>(y), static_cast<std::int64_t>(z),
                         static_cast<std::int64_t>(s.cols), static_cast<std::int64_t>(s.rows),
                         static_cast<std::int64_t>(s.depth), b});
    wrong += std::memcmp(at, &want, sizeof(T)) == 0 ? 0 : 1;
  }
  CHECK(inside == batch * s.depth * s.rows * s.cols);
  CHECK(wrong == 0);
  CHECK(touched == 0);
}

}  // namespace gpuprims::test

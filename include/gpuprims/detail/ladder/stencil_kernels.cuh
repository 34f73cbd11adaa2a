// The stencil ladders' own kernels: the naive rungs in 1D, 2D and 3D (the other rungs are the
// library's kernels with a ladder tuning, ladder/stencil.cuh).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil/tile.cuh>
#include <gpuprims/detail/stencil/tile2d.cuh>
#include <gpuprims/detail/stencil/tile3d.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpuprims::detail {

// One output per thread, its 2 x Rad + 1 inputs read from global memory (the L1 and L2 caches
// catch the reuse between neighbours).
template <int Rad, int BlockSize, class T, class Weights>
__global__ void __launch_bounds__(BlockSize)
    stencil_naive_kernel(const T* in, T* out, std::size_t rows, std::size_t n, std::size_t in_pitch,
                         std::size_t out_pitch, Weights w, boundary b) {
  const auto count = static_cast<std::int64_t>(n);
  wait_for_prior_grids();
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const T* in_row = in + row * in_pitch;
    T* out_row = out + row * out_pitch;
    for (std::int64_t i = blockIdx.x * std::int64_t{BlockSize} + threadIdx.x; i < count;
         i += std::int64_t{gridDim.x} * BlockSize) {
      T acc = T(0);
#pragma unroll
      for (int r = 0; r <= 2 * Rad; ++r) {
        acc = fma(static_cast<T>(w[r]), load_with_boundary(in_row, i - Rad + r, count, b), acc);
      }
      out_row[i] = acc;
    }
  }
}

// 2D: one output per thread (threads along x), every neighbour read from global memory through
// fetch2d, the per-point chain of stencil2d_point.
template <int Rad, stencil_shape Shape, int BlockSize, class T, class Weights>
__global__ void __launch_bounds__(BlockSize)
    stencil2d_naive_kernel(const T* in, T* out, std::size_t rows, std::size_t cols,
                           std::size_t in_pitch, std::size_t out_pitch, Weights w, boundary2d b) {
  wait_for_prior_grids();
  const auto nx = static_cast<std::int64_t>(cols), ny = static_cast<std::int64_t>(rows);
  for (std::int64_t y = blockIdx.y; y < ny; y += gridDim.y) {
    for (std::int64_t x = blockIdx.x * std::int64_t{BlockSize} + threadIdx.x; x < nx;
         x += std::int64_t{gridDim.x} * BlockSize) {
      out[static_cast<std::size_t>(y) * out_pitch + static_cast<std::size_t>(x)] =
          stencil2d_point<Rad, Shape, T>(
              w, [&](int dy, int dx) { return fetch2d(in, in_pitch, x + dx, y + dy, nx, ny, b); });
    }
  }
}

// 3D: one output per thread (threads along x, blocks along y over rows x planes), every neighbour
// read from global memory through fetch3d, the per-point chain of stencil3d_point.
template <int Rad, stencil_shape Shape, int BlockSize, class T, class Weights>
__global__ void __launch_bounds__(BlockSize)
    stencil3d_naive_kernel(const T* in, T* out, std::size_t depth, std::size_t rows,
                           std::size_t cols, std::size_t in_pitch_y, std::size_t in_pitch_z,
                           std::size_t out_pitch_y, std::size_t out_pitch_z, Weights w,
                           boundary3d b) {
  wait_for_prior_grids();
  const auto nx = static_cast<std::int64_t>(cols), ny = static_cast<std::int64_t>(rows),
             nz = static_cast<std::int64_t>(depth);
  for (std::int64_t yz = blockIdx.y; yz < ny * nz; yz += gridDim.y) {
    const std::int64_t y = yz % ny, z = yz / ny;
    for (std::int64_t x = blockIdx.x * std::int64_t{BlockSize} + threadIdx.x; x < nx;
         x += std::int64_t{gridDim.x} * BlockSize) {
      out[static_cast<std::size_t>(z) * out_pitch_z + static_cast<std::size_t>(y) * out_pitch_y +
          static_cast<std::size_t>(x)] =
          stencil3d_point<Rad, Shape, T>(w, [&](int dz, int dy, int dx) {
            return fetch3d(in, in_pitch_y, in_pitch_z, x + dx, y + dy, z + dz, nx, ny, nz, b);
          });
    }
  }
}

}  // namespace gpuprims::detail

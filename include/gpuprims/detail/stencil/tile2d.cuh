// Internals of the 2D stencil: the per-axis boundary fetch and the per-point combination, shared
// by the block template, the launcher's kernel and the tests' reference (host and device), so that
// every path adds the same products in the same order.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/stencil/tile.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace gpuprims::detail {

// One rounding, on the host and the device.
template <class T>
__host__ __device__ inline T fused(T a, T b, T c) {
#ifdef __CUDA_ARCH__
  return fma(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// in[gy][gx] of a grid of nx x ny (row pitch `pitch`), the y rule first outside it, then the x
// rule.
template <class T>
__host__ __device__ inline T fetch2d(const T* in, std::size_t pitch, std::int64_t gx,
                                     std::int64_t gy, std::int64_t nx, std::int64_t ny,
                                     const boundary2d& b) {
  if (gy < 0 || gy >= ny) {
    if (b.y.mode == boundary_mode::constant) {
      return static_cast<T>(b.y.value);
    }
    gy = boundary_index(gy, ny, b.y.mode);
  }
  if (gx < 0 || gx >= nx) {
    if (b.x.mode == boundary_mode::constant) {
      return static_cast<T>(b.x.value);
    }
    gx = boundary_index(gx, nx, b.x.mode);
  }
  return in[static_cast<std::size_t>(gy) * pitch + static_cast<std::size_t>(gx)];
}

// The stencil at one point, at(dy, dx) giving its neighbours: fused multiply-adds from zero, a box
// row by row (dy, then dx, from -Rad), a star along x first (dx from -Rad) then along y (dy from
// -Rad, skipping 0). A user update (stencil_update): its function of `at`.
template <int Rad, stencil_shape Shape, class T, class Weights, class At>
__host__ __device__ inline T stencil2d_point(const Weights& w, At&& at) {
  if constexpr (is_stencil_update<Weights>) {
    return stencil_update_point<T>(w, at);
  } else {
    T acc = T(0);
    if constexpr (Shape == stencil_shape::box) {
      for (int dy = -Rad; dy <= Rad; ++dy) {
        for (int dx = -Rad; dx <= Rad; ++dx) {
          acc = fused(static_cast<T>(w(dy, dx)), at(dy, dx), acc);
        }
      }
    } else {
      for (int dx = -Rad; dx <= Rad; ++dx) {
        acc = fused(static_cast<T>(w(0, dx)), at(0, dx), acc);
      }
      for (int dy = -Rad; dy <= Rad; ++dy) {
        if (dy != 0) {
          acc = fused(static_cast<T>(w(dy, 0)), at(dy, 0), acc);
        }
      }
    }
    return acc;
  }
}

// f(j, i, r, c) for this thread's slots of a Height x Width tile (its halo included) staged by a
// BlockX x BlockY block: row r = threadIdx.y + j BlockY, column c = threadIdx.x + i BlockX, the
// slots inside the tile only.
template <int BlockX, int BlockY, int Height, int Width, class F>
__device__ __forceinline__ void for_each_tile_slot(F&& f) {
  constexpr int rows = (Height + BlockY - 1) / BlockY, cols = (Width + BlockX - 1) / BlockX;
#pragma unroll
  for (int j = 0; j < rows; ++j) {
#pragma unroll
    for (int i = 0; i < cols; ++i) {
      const int r = static_cast<int>(threadIdx.y) + j * BlockY;
      const int c = static_cast<int>(threadIdx.x) + i * BlockX;
      if (r < Height && c < Width) {
        f(j, i, r, c);
      }
    }
  }
}

// The radius a 2D weights type declares.
template <class Weights>
inline constexpr int weights2d_radius = Weights::radius;

}  // namespace gpuprims::detail

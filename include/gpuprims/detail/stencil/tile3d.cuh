// Internals of the 3D stencil: the per-axis boundary fetch and the per-point combination, shared
// by the block template, the launcher's kernel and the tests' reference (host and device), so that
// every path adds the same products in the same order.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/stencil/tile2d.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpuprims::detail {

// The plane a z index names under the z rule (-1: the constant rule's value everywhere).
__host__ __device__ inline std::int64_t plane3d(std::int64_t gz, std::int64_t nz,
                                                const boundary& bz) {
  if (gz >= 0 && gz < nz) {
    return gz;
  }
  return bz.mode == boundary_mode::constant ? -1 : boundary_index(gz, nz, bz.mode);
}

// Where (gx, gy) of a plane of nx x ny (row pitch `pitch`) reads under the rules: the offset of
// the element the y rule, then the x rule, name, or -1 (the y rule's constant) or -2 (the x
// rule's), as fetch2d decides.
__host__ __device__ inline std::int64_t offset2d(std::int64_t gx, std::int64_t gy, std::int64_t nx,
                                                 std::int64_t ny, std::size_t pitch,
                                                 const boundary2d& b) {
  if (gy < 0 || gy >= ny) {
    if (b.y.mode == boundary_mode::constant) {
      return -1;
    }
    gy = boundary_index(gy, ny, b.y.mode);
  }
  if (gx < 0 || gx >= nx) {
    if (b.x.mode == boundary_mode::constant) {
      return -2;
    }
    gx = boundary_index(gx, nx, b.x.mode);
  }
  return gy * static_cast<std::int64_t>(pitch) + gx;
}

// in[gz][gy][gx] of a grid of nx x ny x nz (row pitch `pitch_y`, plane pitch `pitch_z`), the z
// rule first outside it, then the y rule, then the x rule.
template <class T>
__host__ __device__ inline T fetch3d(const T* in, std::size_t pitch_y, std::size_t pitch_z,
                                     std::int64_t gx, std::int64_t gy, std::int64_t gz,
                                     std::int64_t nx, std::int64_t ny, std::int64_t nz,
                                     const boundary3d& b) {
  const std::int64_t plane = plane3d(gz, nz, b.z);
  if (plane < 0) {
    return static_cast<T>(b.z.value);
  }
  return fetch2d(in + static_cast<std::size_t>(plane) * pitch_z, pitch_y, gx, gy, nx, ny,
                 boundary2d(b.x, b.y));
}

// The stencil at one point, at(dz, dy, dx) giving its neighbours: fused multiply-adds from zero,
// a box plane by plane and row by row (dz, then dy, then dx, each from -Rad), a star along x first
// (dx from -Rad), then along y (dy from -Rad, skipping 0), then along z (the same). A user update
// (stencil_update): its function of `at`.
template <int Rad, stencil_shape Shape, class T, class Weights, class At>
__host__ __device__ inline T stencil3d_point(const Weights& w, At&& at) {
  if constexpr (is_stencil_update<Weights>) {
    return stencil_update_point<T>(w, at);
  } else {
    T acc = T(0);
    if constexpr (Shape == stencil_shape::box) {
      for (int dz = -Rad; dz <= Rad; ++dz) {
        for (int dy = -Rad; dy <= Rad; ++dy) {
          for (int dx = -Rad; dx <= Rad; ++dx) {
            acc = fused(static_cast<T>(w(dz, dy, dx)), at(dz, dy, dx), acc);
          }
        }
      }
    } else {
      for (int dx = -Rad; dx <= Rad; ++dx) {
        acc = fused(static_cast<T>(w(0, 0, dx)), at(0, 0, dx), acc);
      }
      for (int dy = -Rad; dy <= Rad; ++dy) {
        if (dy != 0) {
          acc = fused(static_cast<T>(w(0, dy, 0)), at(0, dy, 0), acc);
        }
      }
      for (int dz = -Rad; dz <= Rad; ++dz) {
        if (dz != 0) {
          acc = fused(static_cast<T>(w(dz, 0, 0)), at(dz, 0, 0), acc);
        }
      }
    }
    return acc;
  }
}

// The radius a 3D weights type declares.
template <class Weights>
inline constexpr int weights3d_radius = Weights::radius;

}  // namespace gpuprims::detail

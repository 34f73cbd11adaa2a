// stencil2d<Rad, Shape, T>: one tile of a 2D stencil through shared memory, with its halo and a
// boundary rule per axis, from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/block_shape.cuh>
#include <gpuprims/detail/stencil/tile2d.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims {

/// A block-level 2D stencil on a BlockX x BlockY block (2D), each thread computing ItemsY outputs
/// down a column: one tile of BlockX x (BlockY x ItemsY) outputs per call, its inputs and a halo
/// of Rad on every side staged in shared memory, positions outside the grid supplied by the
/// boundary rules. out[y][x] = sum of w(dy, dx) in[y + dy][x + dx] over the shape (a star: dx == 0
/// or dy == 0; a box: all |dx|, |dy| <= Rad), in the order detail::stencil2d_point documents.
/// Every thread of the block calls apply (it holds barriers); __syncthreads() before reusing the
/// storage. A block of another shape stops the kernel (cudaErrorIllegalInstruction).
///
///   using stencil_t = gpuprims::stencil2d<1, gpuprims::stencil_shape::star, float>;
///   __shared__ stencil_t::storage s;
///   stencil_t(s).apply(in, in_pitch, out, out_pitch, nx, ny, x0, y0, weights, boundary);
template <int Rad, stencil_shape Shape, class T, int BlockX = 32, int BlockY = 4, int ItemsY = 8>
class stencil2d {
  static_assert(Rad >= 1 && Rad <= 4, "stencil2d supports radii 1 to 4");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "stencil2d supports float and double");
  static_assert(BlockX * BlockY <= 1024 && (BlockX * BlockY) % 32 == 0, "whole warps, <= 1024");

 public:
  static constexpr int tile_x = BlockX;
  static constexpr int tile_y = BlockY * ItemsY;

  /// Declare it __shared__: the tile and its halo.
  struct storage {
    T data[tile_y + 2 * Rad][tile_x + 2 * Rad];
  };

  __device__ explicit stencil2d(storage& s) : s_(s) {
    detail::require_block_shape(BlockX, BlockY, 1);
  }

  /// Writes out[y0, y0 + tile_y) x [x0, x0 + tile_x), clipped to the nx x ny grid (pitches in
  /// elements), from in[y0 - Rad, y0 + tile_y + Rad) x [x0 - Rad, x0 + tile_x + Rad).
  template <class Weights>
  __device__ void apply(const T* in, std::size_t in_pitch, T* out, std::size_t out_pitch,
                        std::size_t nx, std::size_t ny, std::size_t x0, std::size_t y0,
                        const Weights& w, const boundary2d& b) {
    static_assert(detail::weights2d_radius<Weights> == Rad, "the weights' radius is Rad");
    load(in, in_pitch, nx, ny, x0, y0, b);
    __syncthreads();
    const int tx = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int k = 0; k < ItemsY; ++k) {
      const int ty = static_cast<int>(threadIdx.y) + k * BlockY;
      const std::size_t gx = x0 + tx, gy = y0 + ty;
      if (gx < nx && gy < ny) {
        out[gy * out_pitch + gx] = detail::stencil2d_point<Rad, Shape, T>(
            w, [&](int dy, int dx) { return s_.data[ty + Rad + dy][tx + Rad + dx]; });
      }
    }
  }

 private:
  // Each thread loads its rows (threadIdx.y, + BlockY, ...) at columns threadIdx.x, + BlockX, ...
  // of the tile and halo into registers first and only then stores them: every load is in flight
  // at once (a load-store loop keeps one in flight per thread and ran at half the copy's speed). A
  // tile whose halo lies inside the grid skips the boundary rules.
  __device__ void load(const T* in, std::size_t pitch, std::size_t nx, std::size_t ny,
                       std::size_t x0, std::size_t y0, const boundary2d& b) {
    constexpr int width = tile_x + 2 * Rad, height = tile_y + 2 * Rad;
    constexpr int rows = (height + BlockY - 1) / BlockY, cols = (width + BlockX - 1) / BlockX;
    const auto gx0 = static_cast<std::int64_t>(x0) - Rad;
    const auto gy0 = static_cast<std::int64_t>(y0) - Rad;
    const auto snx = static_cast<std::int64_t>(nx), sny = static_cast<std::int64_t>(ny);
    T v[rows][cols];
    if (gx0 >= 0 && gy0 >= 0 && gx0 + width <= snx && gy0 + height <= sny) {
      const T* base = in + static_cast<std::size_t>(gy0) * pitch + static_cast<std::size_t>(gx0);
      for_each_slot([&](int j, int i, int r, int c) {
        v[j][i] = base[static_cast<std::size_t>(r) * pitch + static_cast<std::size_t>(c)];
      });
    } else {
      for_each_slot([&](int j, int i, int r, int c) {
        v[j][i] = detail::fetch2d(in, pitch, gx0 + c, gy0 + r, snx, sny, b);
      });
    }
    for_each_slot([&](int j, int i, int r, int c) { s_.data[r][c] = v[j][i]; });
  }

  // f(j, i, r, c) for this thread's slots of the tile and halo (detail::for_each_tile_slot).
  template <class F>
  __device__ static void for_each_slot(F&& f) {
    detail::for_each_tile_slot<BlockX, BlockY, tile_y + 2 * Rad, tile_x + 2 * Rad>(f);
  }

  storage& s_;
};

}  // namespace gpuprims

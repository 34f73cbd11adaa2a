// stencil3d<Rad, Shape, T>: a column of tiles of a 3D stencil by 2.5D streaming (the block marches
// along z through planes in shared memory), with a boundary rule per axis, from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/block_shape.cuh>
#include <gpuprims/detail/stencil/tile3d.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace gpuprims {

/// A block-level 3D stencil on a BlockX x BlockY block (2D), each thread computing ItemsY
/// outputs down a column of every plane: one call writes the tile of BlockX x (BlockY x ItemsY)
/// outputs in each plane z of [z0, z1), marching along z, one barrier a plane; each thread loads
/// its share of the next plane into registers while the current one is computed. A star keeps a
/// ring of 2 Rad + 2 planes of the tile with its halo in shared memory and reads each output's
/// taps from it; a box keeps two planes (this one, the next) and adds each value it reads into
/// every output it reaches at once (the outputs of 2 Rad + 1 planes, ItemsY consecutive rows a
/// thread, in registers): (2 Rad + 1)^2 shared-memory reads an output instead of (2 Rad + 1)^3.
/// Positions outside the grid are supplied by the boundary rules. out[z][y][x] = sum of
/// w(dz, dy, dx) in[z + dz][y + dy][x + dx] over the shape (a star: two of dz, dy, dx zero; a box:
/// all of them within Rad), in the order detail::stencil3d_point documents. Every thread of the
/// block calls apply (it holds barriers); __syncthreads() before reusing the storage. A block of
/// another shape stops the kernel (cudaErrorIllegalInstruction).
///
///   using stencil_t = gpuprims::stencil3d<1, gpuprims::stencil_shape::star, float>;
///   __shared__ stencil_t::storage s;
///   stencil_t(s).apply(in, in_pitch_y, in_pitch_z, out, out_pitch_y, out_pitch_z, nx, ny, nz,
///                      x0, y0, z0, z1, weights, boundary);
template <int Rad, stencil_shape Shape, class T, int BlockX = 32, int BlockY = 8, int ItemsY = 4>
class stencil3d {
  static_assert(Rad >= 1 && Rad <= 4, "stencil3d supports radii 1 to 4");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "stencil3d supports float and double");
  static_assert(BlockX * BlockY <= 1024 && (BlockX * BlockY) % 32 == 0, "whole warps, <= 1024");

  static constexpr int width = BlockX + 2 * Rad;
  static constexpr int height = BlockY * ItemsY + 2 * Rad;
  static constexpr bool box = Shape == stencil_shape::box;
  // The star reads its 2 Rad + 1 planes from a ring of 2 Rad + 2 (the next one stored ahead); the
  // box adds each plane into the outputs it feeds, so two planes (this one, the next) suffice.
  static constexpr int ring_planes = box ? 2 : 2 * Rad + 2;
  // This thread's slots of a plane: rows threadIdx.y + j BlockY, columns threadIdx.x + i BlockX.
  static constexpr int slot_rows = (height + BlockY - 1) / BlockY;
  static constexpr int slot_cols = (width + BlockX - 1) / BlockX;

 public:
  static constexpr int tile_x = BlockX;
  static constexpr int tile_y = BlockY * ItemsY;

  /// Declare it __shared__: planes of the tile with its halo (2 Rad + 2 for a star, 2 for a box).
  struct storage {
    T data[ring_planes][height][width];
  };

  __device__ explicit stencil3d(storage& s) : s_(s) {
    detail::require_block_shape(BlockX, BlockY, 1);
  }

  /// Writes out[z0, z1) x [y0, y0 + tile_y) x [x0, x0 + tile_x), clipped to the nx x ny x nz grid
  /// (pitches in elements: rows pitch_y apart, planes pitch_z apart), from in[z0 - Rad,
  /// z1 + Rad) x [y0 - Rad, y0 + tile_y + Rad) x [x0 - Rad, x0 + tile_x + Rad).
  template <class Weights>
  __device__ void apply(const T* in, std::size_t in_pitch_y, std::size_t in_pitch_z, T* out,
                        std::size_t out_pitch_y, std::size_t out_pitch_z, std::size_t nx,
                        std::size_t ny, std::size_t nz, std::size_t x0, std::size_t y0,
                        std::size_t z0, std::size_t z1, const Weights& w, const boundary3d& b) {
    static_assert(detail::weights3d_radius<Weights> == Rad, "the weights' radius is Rad");
    const auto snz = static_cast<std::int64_t>(nz);
    const auto gx0 = static_cast<std::int64_t>(x0) - Rad;
    const auto gy0 = static_cast<std::int64_t>(y0) - Rad;
    const march_args args{out, out_pitch_y, out_pitch_z, nx, ny, x0, y0, z0, z1};
    if (gx0 >= 0 && gy0 >= 0 && gx0 + width <= static_cast<std::int64_t>(nx) &&
        gy0 + height <= static_cast<std::int64_t>(ny)) {
      // The tile and halo lie inside every plane: this thread's slots are a fixed pattern of
      // offsets from its first one (rows BlockY x pitch apart, columns BlockX apart).
      const std::size_t corner = static_cast<std::size_t>(gy0 + threadIdx.y) * in_pitch_y +
                                 static_cast<std::size_t>(gx0 + threadIdx.x);
      const std::size_t row_step = std::size_t{BlockY} * in_pitch_y;
      march(args, w, [&](std::int64_t gz, T(&v)[slot_rows][slot_cols]) {
        const std::int64_t plane = detail::plane3d(gz, snz, b.z);
        const T* p = in + static_cast<std::size_t>(plane < 0 ? 0 : plane) * in_pitch_z + corner;
        for_each_slot([&](int j, int i, int, int) {
          v[j][i] = plane < 0 ? static_cast<T>(b.z.value) : p[j * row_step + i * BlockX];
        });
      });
      return;
    }
    // Where each of this thread's slots reads inside a plane, the same for every plane of the
    // column: an offset, or -1 / -2 for the y / x rule's constant (the x and y rules applied once).
    std::int64_t at[slot_rows][slot_cols];
    const boundary2d xy(b.x, b.y);
    for_each_slot([&](int j, int i, int r, int c) {
      at[j][i] = detail::offset2d(gx0 + c, gy0 + r, static_cast<std::int64_t>(nx),
                                  static_cast<std::int64_t>(ny), in_pitch_y, xy);
    });
    march(args, w, [&](std::int64_t gz, T(&v)[slot_rows][slot_cols]) {
      const std::int64_t plane = detail::plane3d(gz, snz, b.z);
      const T* p = in + static_cast<std::size_t>(plane < 0 ? 0 : plane) * in_pitch_z;
      for_each_slot([&](int j, int i, int, int) {
        const std::int64_t o = at[j][i];
        v[j][i] = plane < 0 ? static_cast<T>(b.z.value)
                  : o >= 0  ? p[o]
                            : static_cast<T>(o == -1 ? b.y.value : b.x.value);
      });
    });
  }

 private:
  struct march_args {
    T* out;
    std::size_t out_pitch_y, out_pitch_z, nx, ny, x0, y0, z0, z1;
  };

  // The march along z: load(gz, v) puts plane gz (the z rule outside [0, nz)) into this thread's
  // registers, every load in flight at once.
  template <class Weights, class Load>
  __device__ __forceinline__ void march(const march_args& a, const Weights& w, Load&& load) {
    if constexpr (box) {
      march_box(a, w, load);
    } else {
      march_ring(a, w, load);
    }
  }

  // The star: a ring of 2 Rad + 2 planes; thread (x, y) computes rows y + k BlockY, each output
  // through stencil3d_point from the ring.
  template <class Weights, class Load>
  __device__ __forceinline__ void march_ring(const march_args& a, const Weights& w, Load&& load) {
    T v[slot_rows][slot_cols] = {};
    const auto store = [&](int slot) {
      for_each_slot([&](int j, int i, int r, int c) { s_.data[slot][r][c] = v[j][i]; });
    };
    const auto first = static_cast<std::int64_t>(a.z0) - Rad;  // plane q of the march: first + q
    // The 2 Rad planes before z0's last one, then each plane's last one ahead of its compute.
    for (int q = 0; q < 2 * Rad; ++q) {
      load(first + q, v);
      store(q);
    }
    const auto planes = static_cast<std::int64_t>(a.z1 - a.z0);
    if (planes > 0) {
      load(first + 2 * Rad, v);
    }
    const int tx = static_cast<int>(threadIdx.x);
    int oldest = 0;  // the slot of plane q = z, the oldest one output plane z reads
    for (std::int64_t z = 0; z < planes; ++z) {
      // Plane q = z + 2 Rad into the slot of plane z - 2, which no thread reads any more (every
      // thread passed the last plane's barrier after computing plane z - 2).
      store(wrap(oldest + 2 * Rad));
      __syncthreads();
      if (z + 1 < planes) {
        load(first + z + 1 + 2 * Rad, v);  // in flight while this plane is computed
      }
      T* const out_plane = a.out + (a.z0 + static_cast<std::size_t>(z)) * a.out_pitch_z;
#pragma unroll
      for (int k = 0; k < ItemsY; ++k) {
        const int ty = static_cast<int>(threadIdx.y) + k * BlockY;
        const std::size_t gx = a.x0 + tx, gy = a.y0 + ty;
        if (gx < a.nx && gy < a.ny) {
          out_plane[gy * a.out_pitch_y + gx] =
              detail::stencil3d_point<Rad, Shape, T>(w, [&](int dz, int dy, int dx) {
                return s_.data[wrap(oldest + Rad + dz)][ty + Rad + dy][tx + Rad + dx];
              });
        }
      }
      oldest = wrap(oldest + 1);
    }
  }

  // The box: thread (x, y) computes rows y ItemsY + k. Plane q of the march (z0 - Rad + q) feeds
  // the outputs o = q - j of the chunk, j = 0 to 2 Rad (dz = j - Rad): each value of it this
  // thread reads goes into every output it reaches, each output's chain still in stencil3d_point's
  // order (plane by plane from dz = -Rad, row by row). Output o is complete at plane o + 2 Rad.
  template <class Weights, class Load>
  __device__ __forceinline__ void march_box(const march_args& a, const Weights& w, Load&& load) {
    constexpr int span = 2 * Rad + 1;  // the planes an output reads, the outputs a plane feeds
    const auto planes = static_cast<std::int64_t>(a.z1 - a.z0);
    if (planes <= 0) {
      return;
    }
    const std::int64_t total = planes + 2 * Rad;
    const auto first = static_cast<std::int64_t>(a.z0) - Rad;
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y) * ItemsY;
    T v[slot_rows][slot_cols] = {};
    // acc[(o mod span)][k]: output o's row ty + k. Outputs outside the chunk are computed at its
    // ends and never stored.
    T acc[span][ItemsY] = {};
    load(first, v);
    for (std::int64_t q0 = 0; q0 < total; q0 += span) {
      // span planes a round, unrolled at compile time: acc's indices are constants.
      detail::each_of(std::make_integer_sequence<int, span>{}, [&](auto u_constant) {
        constexpr int u = decltype(u_constant)::value;
        const std::int64_t q = q0 + u;
        if (q >= total) {
          return;
        }
        const int slot = static_cast<int>(q & 1);
        // Plane q into the slot of plane q - 2, which no thread reads any more (every thread
        // passed the last plane's barrier after computing plane q - 2).
        for_each_slot([&](int j, int i, int r, int c) { s_.data[slot][r][c] = v[j][i]; });
        __syncthreads();
        if (q + 1 < total) {
          load(first + q + 1, v);  // in flight while this plane is computed
        }
        add_plane<u>(w, s_.data[slot], tx, ty, acc);
        const std::int64_t o = q - 2 * Rad;
        if (o >= 0) {
          T* const out_plane = a.out + (a.z0 + static_cast<std::size_t>(o)) * a.out_pitch_z;
          const std::size_t gx = a.x0 + tx;
#pragma unroll
          for (int k = 0; k < ItemsY; ++k) {
            const std::size_t gy = a.y0 + ty + k;
            if (gx < a.nx && gy < a.ny) {
              out_plane[gy * a.out_pitch_y + gx] = acc[(u + 1) % span][k];  // o = q - 2 Rad
            }
          }
        }
      });
    }
  }

  // One plane's products (the box) into the accumulators of the outputs it feeds: output o = q - j
  // (q the plane, U = q mod span) lives in acc[(U - j) mod span], and j = 0 starts its chain.
  template <int U, class Weights>
  __device__ __forceinline__ static void add_plane(const Weights& w,
                                                   const T (&plane)[height][width], int tx, int ty,
                                                   T (&acc)[2 * Rad + 1][ItemsY]) {
    constexpr int span = 2 * Rad + 1;
#pragma unroll
    for (int k = 0; k < ItemsY; ++k) {
      acc[U % span][k] = T(0);
    }
#pragma unroll
    for (int dy = -Rad; dy <= Rad; ++dy) {
#pragma unroll
      for (int dx = -Rad; dx <= Rad; ++dx) {
        T x[ItemsY];
#pragma unroll
        for (int k = 0; k < ItemsY; ++k) {
          x[k] = plane[ty + k + Rad + dy][tx + Rad + dx];
        }
#pragma unroll
        for (int j = 0; j < span; ++j) {
#pragma unroll
          for (int k = 0; k < ItemsY; ++k) {
            T& a = acc[(U - j + span) % span][k];
            a = detail::fused(static_cast<T>(w(j - Rad, dy, dx)), x[k], a);
          }
        }
      }
    }
  }

  // A slot index in [0, 2 ring_planes) back into the star's ring.
  __device__ static int wrap(int slot) { return slot >= ring_planes ? slot - ring_planes : slot; }

  // f(j, i, r, c) for this thread's slots of a plane (detail::for_each_tile_slot).
  template <class F>
  __device__ static void for_each_slot(F&& f) {
    detail::for_each_tile_slot<BlockX, BlockY, height, width>(f);
  }

  storage& s_;
};

}  // namespace gpuprims

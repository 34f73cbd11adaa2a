// apply_stencil3d_fused's kernel: Steps time steps of a 3D stencil (weights or a user update) in
// one pass over memory. Each block takes a column of tiles through a chunk of planes and marches
// along z, one input plane an iteration (the next ones copied in the background meanwhile): step s
// computes its plane s x Rad planes behind the input, from 2 Rad + 1 planes of step s - 1 kept in a
// shared ring, so the planes of every step stream through shared memory and the grid is read and
// written about once. In each plane, step s computes the tile and (Steps - s) x Rad points around
// it (the span shrinks by Rad a step: the first step reads the input span, the last writes the
// tile).
//
// Every point goes through stencil3d_point, as apply_stencil3d's do, and the positions outside the
// grid take that step's values by the rules, so the result equals Steps single steps bit for bit:
// in a plane, x first in every row, then y by whole rows (fetch3d's order: z, then y, then x); a
// plane outside the grid along z is a copy of the plane its rule names (or the constant), made
// when both exist: a plane above the grid when it comes (its source is at most 2 Rad planes
// behind), a plane below it when its source is computed (at most 2 Rad planes ahead; the step
// after reads neither before). A periodic axis is loaded wrapped and needs nothing: a wrapped
// position evolves exactly as the position it copies.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/async_copy.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil/tile3d.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace gpuprims::detail {

template <class Tuning, class T, int Rad, int Steps>
inline constexpr stencil3d_fused_policy fused3d_policy_here = Tuning::select(GPUPRIMS_TARGET_ARCH,
                                                                             sizeof(T), Rad, Steps);

template <int Rad, int Steps, class T>
__host__ __device__ constexpr bool fused3d_fits(const stencil3d_fused_policy& p, int arch) {
  return p.block_x > 0 && p.block_y > 0 && p.block_x * p.block_y <= 1024 &&
         p.span_x > 2 * Steps * Rad && p.span_y > 2 * Steps * Rad && p.z_chunk > 0 &&
         p.prefetch >= 1 && p.prefetch <= 8 &&
         stencil3d_fused_tuning::shared_bytes(p, sizeof(T), Rad, Steps) <=
             stencil3d_fused_tuning::block_shared_limit(arch);
}

template <class Tuning, class T, int Rad, int Steps>
inline constexpr int fused3d_threads =
    fused3d_fits<Rad, Steps, T>(fused3d_policy_here<Tuning, T, Rad, Steps>, GPUPRIMS_TARGET_ARCH)
        ? fused3d_policy_here<Tuning, T, Rad, Steps>.block_x *
              fused3d_policy_here<Tuning, T, Rad, Steps>.block_y
        : 32;

template <class Tuning, class T, int Rad, int Steps>
inline constexpr int fused3d_min_blocks =
    arch::resident_blocks(fused3d_policy_here<Tuning, T, Rad, Steps>.min_blocks,
                          fused3d_threads<Tuning, T, Rad, Steps>, GPUPRIMS_TARGET_ARCH);

// One block's view of a task: the span's corner in the grid, the grid's sizes and rules, and the
// rings of span_y x span_x planes: ring 0 holds 2 Rad + 1 + Prefetch input planes (plane v in slot
// v mod that), ring s (1 <= s < Steps) 2 Rad + 1 of step s's planes (v mod 2 Rad + 1).
template <int Rad, int SpanX, int SpanY, int Prefetch, class T>
struct fused3d_rings {
  static constexpr int slots = 2 * Rad + 1;
  static constexpr int input_slots = slots + Prefetch;
  static constexpr int plane = SpanX * SpanY;
  T* base;
  std::int64_t sx, sy, nx, ny, nz;
  boundary3d b;

  __device__ T* at(int ring, std::int64_t v) const {
    if (ring == 0) {
      return base + static_cast<int>((v % input_slots + input_slots) % input_slots) * plane;
    }
    const auto k = static_cast<int>((v % slots + slots) % slots);
    return base + (input_slots + (ring - 1) * slots + k) * plane;
  }
};

// f(i, j) for the points (row i, column j) of the span [Lo, SpanY - Lo) x [Lo, SpanX - Lo), the
// block's threads taking rows threadIdx.y + k BlockY and columns threadIdx.x + k BlockX (loops of
// known length, unrolled).
template <int BlockX, int BlockY, int SpanX, int SpanY, int Lo, class F>
__device__ __forceinline__ void fused3d_each(F&& f) {
  constexpr int rows = (SpanY - 2 * Lo + BlockY - 1) / BlockY;
  constexpr int cols = (SpanX - 2 * Lo + BlockX - 1) / BlockX;
#pragma unroll
  for (int a = 0; a < rows; ++a) {
    const int i = Lo + static_cast<int>(threadIdx.y) + a * BlockY;
#pragma unroll
    for (int c = 0; c < cols; ++c) {
      const int j = Lo + static_cast<int>(threadIdx.x) + c * BlockX;
      if (i < SpanY - Lo && j < SpanX - Lo) {
        f(i, j);
      }
    }
  }
}

// The points of a computed plane of step s (span [lo, span - lo)) outside the grid along x or y,
// from that plane's values by the x rule in every row, then by the y rule in whole rows. A point
// whose rule names one outside the span is never read by the tile's outputs and is left as it is.
template <int BlockX, int BlockY, int Lo, int SpanX, int SpanY, int Rad, int Prefetch, class T>
__device__ void fused3d_edges(const fused3d_rings<Rad, SpanX, SpanY, Prefetch, T>& r, T* dst) {
  constexpr int lo = Lo;
  const boundary& bx = r.b.x;
  const boundary& by = r.b.y;
  if (bx.mode != boundary_mode::periodic && (r.sx + lo < 0 || r.sx + SpanX - lo > r.nx)) {
    fused3d_each<BlockX, BlockY, SpanX, SpanY, Lo>([&](int i, int j) {
      const std::int64_t gx = r.sx + j;
      if (gx >= 0 && gx < r.nx) {
        return;
      }
      if (bx.mode == boundary_mode::constant) {
        dst[i * SpanX + j] = static_cast<T>(bx.value);
        return;
      }
      const std::int64_t q = boundary_index(gx, r.nx, bx.mode) - r.sx;
      if (q >= lo && q < SpanX - lo) {
        dst[i * SpanX + j] = dst[i * SpanX + q];
      }
    });
    __syncthreads();
  }
  if (by.mode != boundary_mode::periodic && (r.sy + lo < 0 || r.sy + SpanY - lo > r.ny)) {
    fused3d_each<BlockX, BlockY, SpanX, SpanY, Lo>([&](int i, int j) {
      const std::int64_t gy = r.sy + i;
      if (gy >= 0 && gy < r.ny) {
        return;
      }
      if (by.mode == boundary_mode::constant) {
        dst[i * SpanX + j] = static_cast<T>(by.value);
        return;
      }
      const std::int64_t q = boundary_index(gy, r.ny, by.mode) - r.sy;
      if (q >= lo && q < SpanY - lo) {
        dst[i * SpanX + j] = dst[q * SpanX + j];
      }
    });
    __syncthreads();
  }
}

// Copies the span [Lo, span - Lo) of one plane into another.
template <int BlockX, int BlockY, int SpanX, int SpanY, int Lo, class T>
__device__ void fused3d_copy(const T* src, T* dst) {
  fused3d_each<BlockX, BlockY, SpanX, SpanY, Lo>(
      [&](int i, int j) { dst[i * SpanX + j] = src[i * SpanX + j]; });
}

// Step s's plane v (1 <= s < Steps) into ring s: computed from ring s - 1 (inside the grid along
// z, or anywhere along a periodic z), the constant plane, a copy of its rule's plane above the
// grid, or (below the grid) nothing yet: that plane is copied when its source is computed. Ends
// with a barrier.
template <int S, int BlockX, int BlockY, int SpanX, int SpanY, int Rad, stencil_shape Shape,
          int Prefetch, class T, class Step>
__device__ void fused3d_step(const fused3d_rings<Rad, SpanX, SpanY, Prefetch, T>& r, std::int64_t v,
                             std::int64_t first, const Step& w) {
  constexpr int s = S, lo = S * Rad;
  const boundary& bz = r.b.z;
  T* dst = r.at(s, v);
  const bool inside = v >= 0 && v < r.nz;
  if (inside || bz.mode == boundary_mode::periodic) {
    const T* src[2 * Rad + 1];
    for (int dz = -Rad; dz <= Rad; ++dz) {
      src[dz + Rad] = r.at(s - 1, v + dz);
    }
    fused3d_each<BlockX, BlockY, SpanX, SpanY, lo>([&](int i, int j) {
      dst[i * SpanX + j] = stencil3d_point<Rad, Shape, T>(
          w, [&](int dz, int dy, int dx) { return src[dz + Rad][(i + dy) * SpanX + j + dx]; });
    });
    __syncthreads();
    fused3d_edges<BlockX, BlockY, lo>(r, dst);
    if (!inside || bz.mode == boundary_mode::periodic || bz.mode == boundary_mode::constant ||
        v > 2 * Rad) {
      return;
    }
    // The planes below the grid whose rule names this one (within Rad of the grid: the step after
    // reads no deeper; and at most 2 Rad behind v, so their slots hold nothing still read).
    bool copied = false;
    for (std::int64_t u = -Rad; u < 0; ++u) {
      if (u >= first && u >= v - 2 * Rad && boundary_index(u, r.nz, bz.mode) == v) {
        fused3d_copy<BlockX, BlockY, SpanX, SpanY, lo>(dst, r.at(s, u));
        copied = true;
      }
    }
    if (copied) {
      __syncthreads();
    }
    return;
  }
  if (bz.mode == boundary_mode::constant) {
    fused3d_each<BlockX, BlockY, SpanX, SpanY, lo>(
        [&](int i, int j) { dst[i * SpanX + j] = static_cast<T>(bz.value); });
  } else if (v >= r.nz && v < r.nz + Rad) {
    fused3d_copy<BlockX, BlockY, SpanX, SpanY, lo>(r.at(s, boundary_index(v, r.nz, bz.mode)), dst);
  }
  __syncthreads();
}

// A grid-stride loop over columns of tiles (x fastest, then y, then chunks of the planes
// [z_begin, z_end), then grids). Compiled where the policy fits the target; elsewhere never
// launched.
template <class Tuning, int Rad, stencil_shape Shape, int Steps, class T, class Step>
__global__ void __launch_bounds__(fused3d_threads<Tuning, T, Rad, Steps>,
                                  fused3d_min_blocks<Tuning, T, Rad, Steps>)
    stencil3d_fused_kernel(const T* in, T* out, std::size_t batch, std::size_t depth,
                           std::size_t rows, std::size_t cols, std::size_t in_pitch_y,
                           std::size_t in_pitch_z, std::size_t out_pitch_y, std::size_t out_pitch_z,
                           std::size_t in_stride, std::size_t out_stride, std::size_t z_begin,
                           std::size_t z_end, Step w, boundary3d b) {
  wait_for_prior_grids();
  constexpr stencil3d_fused_policy p = fused3d_policy_here<Tuning, T, Rad, Steps>;
  if constexpr (!fused3d_fits<Rad, Steps, T>(p, GPUPRIMS_TARGET_ARCH)) {
    __trap();  // never launched: the launcher refuses this policy
  } else {
    constexpr int bx = p.block_x, by = p.block_y, span_x = p.span_x, span_y = p.span_y;
    constexpr int threads = bx * by, reach = Steps * Rad;
    constexpr int tile_x = span_x - 2 * reach, tile_y = span_y - 2 * reach;
    using rings_t = fused3d_rings<Rad, span_x, span_y, p.prefetch, T>;
    constexpr int loads = (rings_t::plane + threads - 1) / threads;  // a thread's input elements
    extern __shared__ __align__(16) unsigned char fused3d_shared[];
    T* const base = reinterpret_cast<T*>(fused3d_shared);
    const int tid = static_cast<int>(threadIdx.y) * bx + static_cast<int>(threadIdx.x);
    // Every slot defined before anything reads it (the spans' edges are read as don't-cares).
    for (int i = tid; i < (rings_t::input_slots + (Steps - 1) * rings_t::slots) * rings_t::plane;
         i += threads) {
      base[i] = T(0);
    }
    __syncthreads();
    const auto nx = static_cast<std::int64_t>(cols), ny = static_cast<std::int64_t>(rows),
               nz = static_cast<std::int64_t>(depth);
    const std::size_t tiles_x = ceil_div(cols, std::size_t{tile_x});
    const std::size_t per_chunk = tiles_x * ceil_div(rows, std::size_t{tile_y});
    const std::size_t per_grid =
        per_chunk * ceil_div(z_end - z_begin, static_cast<std::size_t>(p.z_chunk));
    const boundary2d xy(b.x, b.y);
    for (std::size_t t = blockIdx.x; t < per_grid * batch; t += gridDim.x) {
      const std::size_t g = t / per_grid, c = t % per_grid / per_chunk, k = t % per_chunk;
      const T* grid_in = in + g * in_stride;
      T* grid_out = out + g * out_stride;
      const auto x0 = static_cast<std::int64_t>(k % tiles_x * tile_x);
      const auto y0 = static_cast<std::int64_t>(k / tiles_x * tile_y);
      const auto z0 = static_cast<std::int64_t>(z_begin + c * p.z_chunk);
      const auto z_last = static_cast<std::int64_t>(z_end);
      const std::int64_t z1 = z0 + p.z_chunk < z_last ? z0 + p.z_chunk : z_last;
      const rings_t r{base, x0 - reach, y0 - reach, nx, ny, nz, b};
      // Where this thread's input elements (e = tid + j threads: row e / span_x, column e % span_x)
      // read inside a plane, the same in every plane: an offset, or -1 / -2 for the y / x rule's
      // constant, or -3 past the span.
      std::int64_t from[loads];
#pragma unroll
      for (int j = 0; j < loads; ++j) {
        const int e = tid + j * threads;
        from[j] = e < rings_t::plane
                      ? offset2d(r.sx + e % span_x, r.sy + e / span_x, nx, ny, in_pitch_y, xy)
                      : -3;
      }
      // Input plane u arrives at iteration u, copied in the background from iteration
      // u - prefetch on (one group of copies a plane, constants stored at once); step s computes
      // plane u - s Rad once it has inputs (from u = z0 - reach + 2 s Rad on), the last step the
      // chunk's planes.
      const std::int64_t first_u = z0 - reach, end_u = z1 + reach;
      const auto fetch = [&](std::int64_t u) {
        if (u < end_u) {
          const std::int64_t plane = plane3d(u, nz, b.z);
          const T* src = grid_in + static_cast<std::size_t>(plane < 0 ? 0 : plane) * in_pitch_z;
          T* const slot = r.at(0, u);
#pragma unroll
          for (int j = 0; j < loads; ++j) {
            const int e = tid + j * threads;
            const std::int64_t o = from[j];
            if (o == -3) {
              continue;
            }
            if (plane >= 0 && o >= 0) {
              arch::async_copy_small<sizeof(T)>(slot + e, src + o);
            } else {
              slot[e] = plane < 0 ? static_cast<T>(b.z.value)
                                  : static_cast<T>(o == -1 ? b.y.value : b.x.value);
            }
          }
        }
        arch::async_copy_commit();
      };
      for (int d = 0; d < p.prefetch; ++d) {
        fetch(first_u + d);
      }
      for (std::int64_t u = first_u; u < end_u; ++u) {
        arch::async_copy_wait<p.prefetch - 1>();  // this thread's copies of plane u have landed
        __syncthreads();                          // and everyone's
        fetch(u + p.prefetch);  // into the slot of plane u - 2 Rad - 1, read for the last time
        each_of(std::make_integer_sequence<int, Steps - 1>{}, [&](auto k) {
          constexpr int s = decltype(k)::value + 1;
          if (u >= first_u + 2 * s * Rad) {
            fused3d_step<s, bx, by, span_x, span_y, Rad, Shape, p.prefetch>(
                r, u - s * Rad, z0 - (Steps - s) * Rad, w);
          }
        });
        if (u < first_u + 2 * reach) {
          continue;
        }
        // The last step: plane u - reach of the tile, into the output.
        const std::int64_t v = u - reach;
        const T* src[2 * Rad + 1];
        for (int dz = -Rad; dz <= Rad; ++dz) {
          src[dz + Rad] = r.at(Steps - 1, v + dz);
        }
        T* const plane_out = grid_out + static_cast<std::size_t>(v) * out_pitch_z;
        fused3d_each<bx, by, span_x, span_y, reach>([&](int i, int j) {
          const std::int64_t gx = r.sx + j, gy = r.sy + i;
          if (gx < nx && gy < ny) {
            plane_out[static_cast<std::size_t>(gy) * out_pitch_y + static_cast<std::size_t>(gx)] =
                stencil3d_point<Rad, Shape, T>(w, [&](int dz, int dy, int dx) {
                  return src[dz + Rad][(i + dy) * span_x + j + dx];
                });
          }
        });
        __syncthreads();  // the next iteration overwrites the oldest input plane
      }
    }
  }
}

// The planes [z_begin, z_end) of every grid by the shared rings, policy p (fits the device).
template <class Tuning, int Rad, stencil_shape Shape, int Steps, class T, class Step>
cudaError_t launch_stencil3d_fused_rings(const stencil3d_fused_policy& p, const T* in, T* out,
                                         std::size_t batch, std::size_t depth, std::size_t rows,
                                         std::size_t cols, std::size_t in_pitch_y,
                                         std::size_t in_pitch_z, std::size_t out_pitch_y,
                                         std::size_t out_pitch_z, std::size_t in_stride,
                                         std::size_t out_stride, std::size_t z_begin,
                                         std::size_t z_end, const Step& w, const boundary3d& b,
                                         cudaStream_t stream) {
  const auto tile_x = static_cast<std::size_t>(p.span_x - 2 * Steps * Rad);
  const auto tile_y = static_cast<std::size_t>(p.span_y - 2 * Steps * Rad);
  const std::size_t tasks = ceil_div(cols, tile_x) * ceil_div(rows, tile_y) *
                            ceil_div(z_end - z_begin, static_cast<std::size_t>(p.z_chunk)) * batch;
  return launch_shared<stencil3d_fused_kernel<Tuning, Rad, Shape, Steps, T, Step>>(
      dim3(grid_x(tasks)),
      dim3(static_cast<unsigned int>(p.block_x), static_cast<unsigned int>(p.block_y)),
      stencil3d_fused_tuning::shared_bytes(p, sizeof(T), Rad, Steps), stream, false, in, out, batch,
      depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z, in_stride, out_stride,
      z_begin, z_end, w, b);
}

}  // namespace gpuprims::detail

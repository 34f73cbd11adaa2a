// apply_stencil2d_fused's kernels: Steps time steps of a 2D stencil in one pass over memory, by
// register streaming (fused_strip2d.cuh) or by the shared tile below, as the policy says. Each
// block of the shared tile loads a span of the grid around its tile (the tile and Steps x Rad on
// every side, plus Rad more read as taps), applies the stencil Steps times between two
// shared-memory buffers over the whole span (the outer part turns to don't-care values, one radius
// a step, never read by the tile's outputs), and stores the tile. Every point goes through
// stencil2d_point, as apply_stencil2d's do, and after each step the positions outside the grid are
// set again from that step's values by the rules, x first in every row, then y by whole rows
// (fetch2d's order: the y rule, then the x rule), so the result equals Steps calls of
// apply_stencil2d bit for bit. A periodic axis is loaded wrapped and needs nothing: a wrapped
// position evolves exactly as the position it copies.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/features.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil/fused_strip2d.cuh>
#include <gpuprims/detail/stencil/kernels2d.cuh>
#include <gpuprims/detail/stencil/tile2d.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims::detail {

template <class Tuning, class T, int Rad, int Steps>
__host__ __device__ constexpr stencil2d_fused_policy fused2d_policy_for(int arch) {
  stencil2d_fused_policy p = Tuning::select(arch, sizeof(T), Rad, Steps);
  p.min_blocks = p.warps > 0 ? arch::resident_blocks(p.min_blocks, 32 * p.warps, arch) : 0;
  return p;
}

template <class Tuning, class T, int Rad, int Steps>
inline constexpr stencil2d_fused_policy fused2d_policy_here =
    fused2d_policy_for<Tuning, T, Rad, Steps>(GPUPRIMS_TARGET_ARCH);

template <class Tuning, class T, int Rad, int Steps>
inline constexpr int fused2d_threads = fused2d_policy_here<Tuning, T, Rad, Steps>.warps > 0
                                           ? 32 * fused2d_policy_here<Tuning, T, Rad, Steps>.warps
                                           : fused2d_policy_here<Tuning, T, Rad, Steps>.block_x *
                                                 fused2d_policy_here<Tuning, T, Rad, Steps>.block_y;

template <class Tuning, class T, int Rad, int Steps>
inline constexpr int fused2d_min_blocks =
    fused2d_policy_here<Tuning, T, Rad, Steps>.warps > 0
        ? fused2d_policy_here<Tuning, T, Rad, Steps>.min_blocks
        : 1;

// One fused tile: the span computed at each step, the tile `reach` inside it on every side, and
// the buffers' rows (the span and Rad more on each side).
template <int Rad, int Steps, int SpanX, int SpanY>
struct fused2d_layout {
  static constexpr int reach = Steps * Rad;
  static constexpr int tile_x = SpanX - 2 * reach;
  static constexpr int tile_y = SpanY - 2 * reach;
  static constexpr int width = SpanX + 2 * Rad;
  static constexpr int height = SpanY + 2 * Rad;
};

template <int Rad, int Steps, class T>
__host__ __device__ constexpr bool fused2d_fits(const stencil2d_fused_policy& p) {
  if (p.warps > 0) {
    return p.rows >= 1 && p.ring >= 2 && fused_strip_outputs<Rad, Steps, T> > 0;
  }
  return p.span_x > 2 * Steps * Rad && p.span_y > 2 * Steps * Rad && p.block_x > 0 && p.block_y > 0;
}

// The order in which the streaming kernel's warps take one grid's strips (strips_x x strips_y of
// them): a block's `warps` warps take a band of `warps` strips stacked down one column, the bands'
// columns along x, band after band (a block's strips share the rows between them). In row-major
// order 8 fused steps of the 5-point stencil took 1.08-1.11x as long on an H200, 4 steps at 8192^2
// 1.02-1.04x (not profiled; docs/stencil.md). Positions past the last strip row are empty
// (`locate` says so): size() rounds the bands up.
struct fused2d_strip_order {
  std::size_t strips_x, strips_y, warps;

  __host__ __device__ std::size_t size() const {
    return strips_x * ceil_div(strips_y, warps) * warps;
  }
  // Strip (sx, sy) at position r of [0, size()); false where the position is empty.
  __host__ __device__ bool locate(std::size_t r, std::size_t& sx, std::size_t& sy) const {
    const std::size_t band = strips_x * warps;
    sx = r % band / warps;
    sy = r / band * warps + r % warps;
    return sy < strips_y;
  }
};

// Register streaming: every warp takes strips of a batch of grids in a grid-stride loop, in
// fused2d_strip_order. Compiled where the policy streams; elsewhere never launched.
template <class Tuning, int Rad, stencil_shape Shape, int Steps, class T, class Weights>
__global__ void __launch_bounds__(fused2d_threads<Tuning, T, Rad, Steps>,
                                  fused2d_min_blocks<Tuning, T, Rad, Steps>)
    stencil2d_fused_strip_kernel(const T* in, T* out, std::size_t batch, std::size_t rows,
                                 std::size_t cols, std::size_t in_pitch, std::size_t out_pitch,
                                 std::size_t in_stride, std::size_t out_stride, Weights w,
                                 boundary2d b) {
  wait_for_prior_grids();
  constexpr stencil2d_fused_policy p = fused2d_policy_here<Tuning, T, Rad, Steps>;
  if constexpr (p.warps == 0 || !fused2d_fits<Rad, Steps, T>(p)) {
    __trap();  // never launched: the launcher takes the shared tile or refuses this policy
  } else {
    constexpr int width = fused_strip_outputs<Rad, Steps, T>;
    __shared__ uint4 rings[p.warps][p.ring][32];  // each warp's input rows in flight
    const std::size_t strips_x = ceil_div(cols, std::size_t{width});
    const fused2d_strip_order order{strips_x, ceil_div(rows, static_cast<std::size_t>(p.rows)),
                                    static_cast<std::size_t>(p.warps)};
    const std::size_t per_grid = order.size();
    const std::size_t warps = static_cast<std::size_t>(gridDim.x) * p.warps;
    for (std::size_t t = blockIdx.x * static_cast<std::size_t>(p.warps) + threadIdx.x / 32;
         t < per_grid * batch; t += warps) {
      const std::size_t g = t / per_grid, r = t % per_grid;
      std::size_t sx = 0, sy = 0;
      if (!order.locate(r, sx, sy)) {
        continue;
      }
      stencil2d_fused_strip<Rad, Shape, Steps, p.ring>(
          in + g * in_stride, in_pitch, out + g * out_stride, out_pitch,
          static_cast<std::int64_t>(cols), static_cast<std::int64_t>(rows),
          static_cast<std::int64_t>(sx * width), static_cast<std::int64_t>(sy * p.rows), p.rows, w,
          b, rings[threadIdx.x / 32]);
    }
  }
}

// The shared tile: a grid-stride loop over tiles. Compiled where the policy takes it; elsewhere
// never launched.
template <class Tuning, int Rad, stencil_shape Shape, int Steps, class T, class Weights>
__global__ void __launch_bounds__(fused2d_threads<Tuning, T, Rad, Steps>)
    stencil2d_fused_kernel(const T* in, T* out, std::size_t batch, std::size_t rows,
                           std::size_t cols, std::size_t in_pitch, std::size_t out_pitch,
                           std::size_t in_stride, std::size_t out_stride, Weights w, boundary2d b) {
  wait_for_prior_grids();
  constexpr stencil2d_fused_policy p = fused2d_policy_here<Tuning, T, Rad, Steps>;
  if constexpr (p.warps > 0 || !fused2d_fits<Rad, Steps, T>(p)) {
    __trap();  // never launched: the launcher streams or refuses this policy
  } else {
    using layout = fused2d_layout<Rad, Steps, p.span_x, p.span_y>;
    __shared__ T buffers[2][layout::height][layout::width];
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const auto nx = static_cast<std::int64_t>(cols), ny = static_cast<std::int64_t>(rows);
    const std::size_t tiles_x = ceil_div(cols, std::size_t{layout::tile_x});
    const std::size_t tiles_y = ceil_div(rows, std::size_t{layout::tile_y});
    const std::size_t per_grid = tiles_x * tiles_y;
    for (std::size_t t = blockIdx.x; t < per_grid * batch; t += gridDim.x) {
      const std::size_t g = t / per_grid, r = t % per_grid;
      const T* grid_in = in + g * in_stride;
      T* grid_out = out + g * out_stride;
      const auto x0 = static_cast<std::int64_t>(r % tiles_x * layout::tile_x);
      const auto y0 = static_cast<std::int64_t>(r / tiles_x * layout::tile_y);
      // Slot [i][j] of a buffer holds point (sx + j - Rad, sy + i - Rad): the span begins at
      // point (sx, sy), slot [Rad][Rad].
      const std::int64_t sx = x0 - layout::reach, sy = y0 - layout::reach;
      for (int i = ty; i < layout::height; i += p.block_y) {
        for (int j = tx; j < layout::width; j += p.block_x) {
          buffers[0][i][j] = fetch2d<T>(grid_in, in_pitch, sx + j - Rad, sy + i - Rad, nx, ny, b);
          const bool ring =
              i < Rad || i >= layout::height - Rad || j < Rad || j >= layout::width - Rad;
          if (ring) {
            buffers[1][i][j] = T(0);  // read as taps, never written: give them defined values
          }
        }
      }
      __syncthreads();
      const bool touches_edge = sx < 0 || sy < 0 || sx + p.span_x > nx || sy + p.span_y > ny;
#pragma unroll 1
      for (int step = 1; step <= Steps; ++step) {
        const T(*src)[layout::width] = buffers[(step - 1) & 1];
        T(*dst)[layout::width] = buffers[step & 1];
        for (int i = ty; i < p.span_y; i += p.block_y) {
          for (int j = tx; j < p.span_x; j += p.block_x) {
            dst[Rad + i][Rad + j] = stencil2d_point<Rad, Shape, T>(
                w, [&](int dy, int dx) { return src[Rad + i + dy][Rad + j + dx]; });
          }
        }
        __syncthreads();
        if (step == Steps || !touches_edge) {
          continue;
        }
        // Points outside the grid again from this step's values: along x in every row, then along
        // y by whole rows. A point whose rule names one outside the span is never read by the
        // tile's outputs and is left as it is.
        if (b.x.mode != boundary_mode::periodic) {
          for (int i = ty; i < p.span_y; i += p.block_y) {
            for (int j = tx; j < p.span_x; j += p.block_x) {
              const std::int64_t gx = sx + j;
              if (gx >= 0 && gx < nx) {
                continue;
              }
              if (b.x.mode == boundary_mode::constant) {
                dst[Rad + i][Rad + j] = static_cast<T>(b.x.value);
              } else {
                const std::int64_t q = boundary_index(gx, nx, b.x.mode) - sx;
                if (q >= 0 && q < p.span_x) {
                  dst[Rad + i][Rad + j] = dst[Rad + i][Rad + q];
                }
              }
            }
          }
          __syncthreads();
        }
        if (b.y.mode != boundary_mode::periodic) {
          for (int i = ty; i < p.span_y; i += p.block_y) {
            const std::int64_t gy = sy + i;
            if (gy >= 0 && gy < ny) {
              continue;
            }
            const std::int64_t q =
                b.y.mode == boundary_mode::constant ? -1 : boundary_index(gy, ny, b.y.mode) - sy;
            for (int j = tx; j < p.span_x; j += p.block_x) {
              if (b.y.mode == boundary_mode::constant) {
                dst[Rad + i][Rad + j] = static_cast<T>(b.y.value);
              } else if (q >= 0 && q < p.span_y) {
                dst[Rad + i][Rad + j] = dst[Rad + q][Rad + j];
              }
            }
          }
          __syncthreads();
        }
      }
      const T(*result)[layout::width] = buffers[Steps & 1];
      for (int i = ty; i < layout::tile_y && y0 + i < ny; i += p.block_y) {
        for (int j = tx; j < layout::tile_x && x0 + j < nx; j += p.block_x) {
          grid_out[static_cast<std::size_t>(y0 + i) * out_pitch +
                   static_cast<std::size_t>(x0 + j)] =
              result[Rad + layout::reach + i][Rad + layout::reach + j];
        }
      }
      __syncthreads();  // the next tile overwrites the buffers
    }
  }
}

template <class Tuning, int Rad, stencil_shape Shape, int Steps, class T, class Weights>
cudaError_t launch_stencil2d_fused(const T* in, T* out, std::size_t batch, std::size_t rows,
                                   std::size_t cols, std::size_t in_pitch, std::size_t out_pitch,
                                   std::size_t in_stride, std::size_t out_stride, const Weights& w,
                                   const boundary2d& b, cudaStream_t stream) {
  constexpr stencil_shape shape = stencil2d_step_shape<Shape, Weights>;
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const stencil2d_fused_policy p = Tuning::select(facts.target_arch, sizeof(T), Rad, Steps);
  if (!fused2d_fits<Rad, Steps, T>(p)) {
    return cudaErrorInvalidValue;  // the kernel for this device would not exist
  }
  if (p.warps > 0) {
    const std::size_t strips =
        fused2d_strip_order{
            ceil_div(cols, static_cast<std::size_t>(fused_strip_outputs<Rad, Steps, T>)),
            ceil_div(rows, static_cast<std::size_t>(p.rows)), static_cast<std::size_t>(p.warps)}
            .size() *
        batch;
    return launch<stencil2d_fused_strip_kernel<Tuning, Rad, shape, Steps, T, Weights>>(
        dim3(grid_x(ceil_div(strips, static_cast<std::size_t>(p.warps)))),
        dim3(static_cast<unsigned int>(32 * p.warps)), stream,
        dependent_launch(p.dependent_launch, facts), in, out, batch, rows, cols, in_pitch,
        out_pitch, in_stride, out_stride, w, b);
  }
  const auto tile_x = static_cast<std::size_t>(p.span_x - 2 * Steps * Rad);
  const auto tile_y = static_cast<std::size_t>(p.span_y - 2 * Steps * Rad);
  const std::size_t tiles = ceil_div(cols, tile_x) * ceil_div(rows, tile_y) * batch;
  const unsigned int blocks = static_cast<unsigned int>(tiles < 0x7fffffff ? tiles : 0x7fffffff);
  return launch<stencil2d_fused_kernel<Tuning, Rad, shape, Steps, T, Weights>>(
      dim3(blocks),
      dim3(static_cast<unsigned int>(p.block_x), static_cast<unsigned int>(p.block_y)), stream,
      dependent_launch(p.dependent_launch, facts), in, out, batch, rows, cols, in_pitch, out_pitch,
      in_stride, out_stride, w, b);
}

}  // namespace gpuprims::detail

// The 2D stencil's kernels (register streaming behind apply_stencil2d, the shared tile for the
// ladder), its argument checks and their launches.
#pragma once

#include <gpuprims/block/stencil2d.cuh>
#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/features.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>
#include <gpuprims/warp/stencil2d.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gpuprims::detail {

template <class Tuning, class T, int Rad, stencil_shape Shape>
__host__ __device__ constexpr stencil2d_policy stencil2d_policy_for(int arch) {
  stencil2d_policy p = Tuning::select(arch, sizeof(T), Rad, Shape);
  p.min_blocks = p.warps > 0 ? arch::resident_blocks(p.min_blocks, 32 * p.warps, arch) : 0;
  return p;
}

template <class Tuning, class T, int Rad, stencil_shape Shape>
inline constexpr stencil2d_policy stencil2d_policy_here =
    stencil2d_policy_for<Tuning, T, Rad, Shape>(GPUPRIMS_TARGET_ARCH);

// ---- the shared tile (gpuprims::stencil2d) ------------------------------------------------------

template <class Tuning, class T, int Rad, stencil_shape Shape>
inline constexpr int stencil2d_tile_threads = stencil2d_policy_here<Tuning, T, Rad, Shape>.warps > 0
                                                  ? 32
                                                  : stencil2d_policy_here<Tuning, T, Rad, Shape>.block_x *
                                                        stencil2d_policy_here<Tuning, T, Rad, Shape>.block_y;

// A grid-stride loop over the tiles of a batch of grids. Compiled where the policy takes the
// shared tile; elsewhere never launched.
template <class Tuning, int Rad, stencil_shape Shape, class T, class Weights>
__global__ void __launch_bounds__(stencil2d_tile_threads<Tuning, T, Rad, Shape>)
    stencil2d_tile_kernel(const T* in, T* out, std::size_t batch, std::size_t rows,
                          std::size_t cols, std::size_t in_pitch, std::size_t out_pitch,
                          std::size_t in_stride, std::size_t out_stride, Weights w, boundary2d b) {
  wait_for_prior_grids();
  constexpr stencil2d_policy p = stencil2d_policy_here<Tuning, T, Rad, Shape>;
  if constexpr (p.warps > 0) {
    __trap();  // never launched: the launcher streams with this policy
  } else {
    using stencil_t = stencil2d<Rad, Shape, T, p.block_x, p.block_y, p.items_y>;
    __shared__ typename stencil_t::storage s;
    const std::size_t tiles_x = ceil_div(cols, std::size_t{stencil_t::tile_x});
    const std::size_t tiles_y = ceil_div(rows, std::size_t{stencil_t::tile_y});
    const std::size_t per_grid = tiles_x * tiles_y;
    for (std::size_t t = blockIdx.x; t < per_grid * batch; t += gridDim.x) {
      const std::size_t g = t / per_grid, r = t % per_grid;
      stencil_t(s).apply(in + g * in_stride, in_pitch, out + g * out_stride, out_pitch, cols, rows,
                         r % tiles_x * stencil_t::tile_x, r / tiles_x * stencil_t::tile_y, w, b);
      __syncthreads();  // the storage is reused by the next tile
    }
  }
}

// ---- register streaming (gpuprims::warp_stencil2d) ----------------------------------------------

template <class Tuning, class T, int Rad, stencil_shape Shape>
inline constexpr int stencil2d_threads = 32 *
                                         (stencil2d_policy_here<Tuning, T, Rad, Shape>.warps > 0
                                              ? stencil2d_policy_here<Tuning, T, Rad, Shape>.warps
                                              : 1);

template <class Tuning, class T, int Rad, stencil_shape Shape>
inline constexpr int stencil2d_min_blocks =
    stencil2d_policy_here<Tuning, T, Rad, Shape>.warps > 0
        ? stencil2d_policy_here<Tuning, T, Rad, Shape>.min_blocks
        : 1;

// Every warp takes strips of a batch of grids in a grid-stride loop, strips along x first (the
// warps at work at one time share the rows at their strips' ends through the L2). Compiled where
// the policy streams; elsewhere never launched.
template <class Tuning, int Rad, stencil_shape Shape, class T, class Weights>
__global__ void __launch_bounds__(stencil2d_threads<Tuning, T, Rad, Shape>,
                                  stencil2d_min_blocks<Tuning, T, Rad, Shape>)
    stencil2d_kernel(const T* in, T* out, std::size_t batch, std::size_t rows, std::size_t cols,
                     std::size_t in_pitch, std::size_t out_pitch, std::size_t in_stride,
                     std::size_t out_stride, Weights w, boundary2d b) {
  wait_for_prior_grids();
  constexpr stencil2d_policy p = stencil2d_policy_here<Tuning, T, Rad, Shape>;
  if constexpr (p.warps == 0) {
    __trap();  // never launched: the launcher takes the shared tile with this policy
  } else {
    const std::size_t strips_x = ceil_div(cols, static_cast<std::size_t>(strip_width<T>));
    const std::size_t bands = ceil_div(rows, static_cast<std::size_t>(p.rows));
    const std::size_t per_grid = strips_x * bands;
    const std::size_t warps = static_cast<std::size_t>(gridDim.x) * p.warps;
    for (std::size_t t = blockIdx.x * static_cast<std::size_t>(p.warps) + threadIdx.x / 32;
         t < per_grid * batch; t += warps) {
      const std::size_t g = t / per_grid, r = t % per_grid;
      const T* grid_in = in + g * in_stride;
      T* grid_out = out + g * out_stride;
      const auto x0 = static_cast<std::int64_t>(r % strips_x * strip_width<T>);
      // A grid's last band of strips first: it reads rows past the grid (the y rule's path, a
      // batch of rows in flight at a time), and last it would run alone in the launch's last wave.
      const std::size_t band = r / strips_x;
      const auto y0 = static_cast<std::int64_t>((band == 0 ? bands - 1 : band - 1) * p.rows);
      if constexpr (p.staged != 0) {
        __shared__ strip_stage<T, Rad, p.rows> stage[p.warps];  // each warp's strip
        stencil2d_strip_staged<Rad, Shape, p.rows, p.batch>(
            grid_in, in_pitch, grid_out, out_pitch, static_cast<std::int64_t>(cols),
            static_cast<std::int64_t>(rows), x0, y0, w, b, stage[threadIdx.x / 32]);
      } else {
        warp_stencil2d<Rad, Shape, p.rows, p.batch>(grid_in, in_pitch, grid_out, out_pitch, cols,
                                                    rows, static_cast<std::size_t>(x0),
                                                    static_cast<std::size_t>(y0), w, b);
      }
    }
  }
}

inline bool known_boundary(const boundary& b) {
  return b.mode == boundary_mode::constant || b.mode == boundary_mode::clamp ||
         b.mode == boundary_mode::periodic || b.mode == boundary_mode::mirror;
}

template <class T>
cudaError_t validate_stencil2d(const T* in, const T* out, std::size_t batch, std::size_t rows,
                               std::size_t cols, std::size_t in_pitch, std::size_t out_pitch,
                               std::size_t in_stride, std::size_t out_stride, const boundary2d& b) {
  constexpr auto limit = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
  std::size_t in_span = 0, out_span = 0;
  const bool ok =
      in != nullptr && out != nullptr && batch > 0 && rows > 0 && cols > 0 && rows <= limit &&
      cols <= limit && in_pitch >= cols && out_pitch >= cols && known_boundary(b.x) &&
      known_boundary(b.y) &&
      (batch == 1 || (in_stride >= rows * in_pitch && out_stride >= rows * out_pitch)) &&
      checked_span(batch, in_stride, rows, in_pitch, cols, in_span) &&
      checked_span(batch, out_stride, rows, out_pitch, cols, out_span) &&
      disjoint_spans(in, in_span, out, out_span);
  return ok ? cudaSuccess : cudaErrorInvalidValue;
}

// The shape a step's policy and kernels are chosen for: a user update (stencil_update) reads the
// whole box whatever the launcher's shape, so it takes the box's.
template <stencil_shape Shape, class Step>
inline constexpr stencil_shape stencil2d_step_shape =
    is_stencil_update<Step> ? stencil_shape::box : Shape;

template <class Tuning, int Rad, stencil_shape Shape, class T, class Weights>
cudaError_t launch_stencil2d(const T* in, T* out, std::size_t batch, std::size_t rows,
                             std::size_t cols, std::size_t in_pitch, std::size_t out_pitch,
                             std::size_t in_stride, std::size_t out_stride, const Weights& w,
                             const boundary2d& b, cudaStream_t stream) {
  constexpr stencil_shape shape = stencil2d_step_shape<Shape, Weights>;
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const stencil2d_policy p = Tuning::select(facts.target_arch, sizeof(T), Rad, shape);
  if (p.warps > 0) {
    const std::size_t strips = ceil_div(cols, static_cast<std::size_t>(strip_width<T>)) *
                               ceil_div(rows, static_cast<std::size_t>(p.rows)) * batch;
    return launch<stencil2d_kernel<Tuning, Rad, shape, T, Weights>>(
        dim3(grid_x(ceil_div(strips, static_cast<std::size_t>(p.warps)))),
        dim3(static_cast<unsigned int>(32 * p.warps)), stream,
        dependent_launch(p.dependent_launch, facts), in, out, batch, rows, cols, in_pitch,
        out_pitch, in_stride, out_stride, w, b);
  }
  const std::size_t tiles = ceil_div(cols, static_cast<std::size_t>(p.block_x)) *
                            ceil_div(rows, static_cast<std::size_t>(p.block_y * p.items_y)) * batch;
  return launch<stencil2d_tile_kernel<Tuning, Rad, shape, T, Weights>>(
      dim3(grid_x(tiles)),
      dim3(static_cast<unsigned int>(p.block_x), static_cast<unsigned int>(p.block_y)), stream,
      dependent_launch(p.dependent_launch, facts), in, out, batch, rows, cols, in_pitch, out_pitch,
      in_stride, out_stride, w, b);
}

}  // namespace gpuprims::detail

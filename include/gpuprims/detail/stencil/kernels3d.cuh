// The 3D stencil's kernels (register streaming behind apply_stencil3d, the shared ring for the
// ladder), its argument checks and their launches.
#pragma once

#include <gpuprims/block/stencil3d.cuh>
#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil/kernels2d.cuh>
#include <gpuprims/detail/stencil/strip3d.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace gpuprims::detail {

template <class Tuning, class T, int Rad, stencil_shape Shape>
__host__ __device__ constexpr stencil3d_policy stencil3d_policy_for(int arch) {
  stencil3d_policy p = Tuning::select(arch, sizeof(T), Rad, Shape);
  p.min_blocks =
      arch::resident_blocks(p.min_blocks, p.warps > 0 ? 32 * p.warps : p.block_x * p.block_y, arch);
  return p;
}

template <class Tuning, class T, int Rad, stencil_shape Shape>
inline constexpr stencil3d_policy stencil3d_policy_here =
    stencil3d_policy_for<Tuning, T, Rad, Shape>(GPUPRIMS_TARGET_ARCH);

// The threads of a block of either kernel where the policy takes it (32 where it does not: that
// kernel is never launched).
template <class Tuning, class T, int Rad, stencil_shape Shape, bool Streaming>
inline constexpr int stencil3d_threads =
    (stencil3d_policy_here<Tuning, T, Rad, Shape>.warps > 0) != Streaming
        ? 32
        : (Streaming ? 32 * stencil3d_policy_here<Tuning, T, Rad, Shape>.warps
                     : stencil3d_policy_here<Tuning, T, Rad, Shape>.block_x *
                           stencil3d_policy_here<Tuning, T, Rad, Shape>.block_y);

template <class Tuning, class T, int Rad, stencil_shape Shape, bool Streaming>
inline constexpr int stencil3d_min_blocks =
    (stencil3d_policy_here<Tuning, T, Rad, Shape>.warps > 0) != Streaming
        ? 1
        : stencil3d_policy_here<Tuning, T, Rad, Shape>.min_blocks;

// ---- the shared ring (gpuprims::stencil3d) -----------------------------------------------------

// One block's share: column r of tiles (x fastest) of z chunk c of grid g. Compiled where the
// policy takes the shared ring; elsewhere never launched.
template <class Tuning, int Rad, stencil_shape Shape, class T, class Weights>
__global__ void __launch_bounds__(stencil3d_threads<Tuning, T, Rad, Shape, false>,
                                  stencil3d_min_blocks<Tuning, T, Rad, Shape, false>)
    stencil3d_kernel(const T* in, T* out, std::size_t batch, std::size_t depth, std::size_t rows,
                     std::size_t cols, std::size_t in_pitch_y, std::size_t in_pitch_z,
                     std::size_t out_pitch_y, std::size_t out_pitch_z, std::size_t in_stride,
                     std::size_t out_stride, Weights w, boundary3d b) {
  wait_for_prior_grids();
  constexpr stencil3d_policy p = stencil3d_policy_here<Tuning, T, Rad, Shape>;
  if constexpr (p.warps > 0) {
    __trap();  // never launched: the launcher streams with this policy
  } else {
    using stencil_t = stencil3d<Rad, Shape, T, p.block_x, p.block_y, p.items_y>;
    constexpr auto chunk = static_cast<std::size_t>(p.z_chunk);
    __shared__ typename stencil_t::storage s;
    const std::size_t tiles_x = ceil_div(cols, std::size_t{stencil_t::tile_x});
    const std::size_t tiles_y = ceil_div(rows, std::size_t{stencil_t::tile_y});
    const std::size_t chunks = ceil_div(depth, chunk);
    const std::size_t per_chunk = tiles_x * tiles_y;
    const std::size_t per_grid = per_chunk * chunks;
    for (std::size_t t = blockIdx.x; t < per_grid * batch; t += gridDim.x) {
      const std::size_t g = t / per_grid, r = t % per_grid;
      const std::size_t c = r / per_chunk, tile = r % per_chunk;
      const std::size_t z0 = c * chunk, z1 = z0 + chunk < depth ? z0 + chunk : depth;
      stencil_t(s).apply(in + g * in_stride, in_pitch_y, in_pitch_z, out + g * out_stride,
                         out_pitch_y, out_pitch_z, cols, rows, depth,
                         tile % tiles_x * stencil_t::tile_x, tile / tiles_x * stencil_t::tile_y, z0,
                         z1, w, b);
      __syncthreads();  // the storage is reused by the next column
    }
  }
}

// ---- register streaming (gpuprims::warp_stencil3d) ----------------------------------------------

// The rows of a plane as the streaming kernel covers them: `full` strips of `strip` rows, rows
// [radius, radius + full x strip) (each strip's rows and the radius rows around them inside the
// grid), and the other rows one task each (the first and last radius rows and what is left).
__host__ __device__ constexpr std::size_t strip3d_full(std::size_t rows, int radius, int strip) {
  return rows > 2 * static_cast<std::size_t>(radius)
             ? (rows - 2 * static_cast<std::size_t>(radius)) / static_cast<std::size_t>(strip)
             : 0;
}

__host__ __device__ constexpr std::size_t strip3d_tasks_y(std::size_t rows, int radius, int strip) {
  const std::size_t full = strip3d_full(rows, radius, strip);
  return full + (rows - full * static_cast<std::size_t>(strip));
}

// The order of a grid's full strips (`strips` a layer of planes, x first, down the plane) through
// its `chunks` chunks of planes. A strip's chunk c + 1 reads the Rad planes on either side of the
// chunks' boundary, which chunk c reads too: at its end, where chunk c + 1 reads them at its start.
// So the order puts chunk c + 1 of a strip about `warps` tasks (the warps at work at one time)
// after chunk c, and chunk c + 1 starts about when chunk c ends, the shared planes still in the L2:
// - layers of at least `warps` strips: blocks of `warps` strips, each through every chunk in turn
//   (the last block shorter);
// - smaller layers: stride = floor(warps / strips) layers side by side, chunks that far apart (0,
//   K, 2K, ... with K = ceil(chunks / stride), then 1, K + 1, ...; the last stride x K - chunks
//   columns one chunk shorter). Rounded down, chunk c + 1 starts before chunk c ends: on the H100
//   (512^3 floats) the star's layers of 508 strips took 4 side by side for its 2112 warps (554 MB
//   read from DRAM, against 559 with 3, 563 with 5 and 572 with 1, chunk after chunk), the box's
//   1020 strips 1 for its 1584 warps (556 MB, against 565 with 2).
// Each output is still computed by one task in one order: the bits do not depend on the order.
struct strip3d_order {
  std::size_t block = 1;   ///< strips a block
  std::size_t stride = 1;  ///< chunks side by side in a block

  __host__ __device__ static strip3d_order plan(std::size_t strips, std::size_t chunks,
                                                std::size_t warps) {
    strip3d_order o;
    if (strips == 0 || chunks == 0) {
      return o;
    }
    warps = warps > 0 ? warps : 1;
    o.block = strips < warps ? strips : warps;
    if (strips < warps) {
      const std::size_t g = warps / strips;
      o.stride = g < chunks ? g : chunks;
    }
    return o;
  }

  // Task r (< chunks x strips) is strip s of chunk c.
  __host__ __device__ void locate(std::size_t r, std::size_t strips, std::size_t chunks,
                                  std::size_t& c, std::size_t& s) const {
    const std::size_t b = r / (block * chunks), first = b * block;
    const std::size_t width = strips - first < block ? strips - first : block;
    const std::size_t rr = r - first * chunks;
    const std::size_t q = rr / width;  // the chunk's place in the block's order
    s = first + rr % width;
    const std::size_t k = (chunks + stride - 1) / stride;     // chunks in a column
    const std::size_t full = stride - (k * stride - chunks);  // columns of k chunks
    const std::size_t i = q % stride, j = q / stride;
    c = i * k - (i > full ? i - full : 0) + j;
  }
};

// Every warp takes tasks of a batch of grids in a grid-stride loop: in each grid the single rows of
// every chunk first (chunk by chunk), then the full strips in strip3d_order (the warps at work at
// one time share the rows at their strips' ends, and the planes at their chunks' ends, through the
// L2). Single rows keep the rows that need the y rule off the full strips, whose registers are
// sized for rows inside the grid, and are short tasks of their own (when a full strip at the
// grid's top and bottom marched them one after another, the kernel waited on those strips:
// docs/stencil.md). Compiled where the policy streams; elsewhere never launched.
template <class Tuning, int Rad, stencil_shape Shape, class T, class Weights>
__global__ void __launch_bounds__(stencil3d_threads<Tuning, T, Rad, Shape, true>,
                                  stencil3d_min_blocks<Tuning, T, Rad, Shape, true>)
    stencil3d_strip_kernel(const T* in, T* out, std::size_t batch, std::size_t depth,
                           std::size_t rows, std::size_t cols, std::size_t in_pitch_y,
                           std::size_t in_pitch_z, std::size_t out_pitch_y, std::size_t out_pitch_z,
                           std::size_t in_stride, std::size_t out_stride, Weights w, boundary3d b,
                           strip3d_order order) {
  wait_for_prior_grids();
  constexpr stencil3d_policy p = stencil3d_policy_here<Tuning, T, Rad, Shape>;
  if constexpr (p.warps == 0) {
    __trap();  // never launched: the launcher takes the shared ring with this policy
  } else {
    constexpr auto chunk = static_cast<std::size_t>(p.z_chunk);
    const std::size_t strips_x = ceil_div(cols, static_cast<std::size_t>(strip_width<T>));
    const std::size_t full = strip3d_full(rows, Rad, p.rows);
    const std::size_t per_plane = strips_x * strip3d_tasks_y(rows, Rad, p.rows);
    const std::size_t chunks = ceil_div(depth, chunk);
    const std::size_t per_grid = per_plane * chunks;
    // A grid's single rows first, every chunk's, then its full strips: a single row waits a round
    // trip a plane, and left to the end its tasks would run alone in the launch's last wave.
    const std::size_t singles = (per_plane - strips_x * full) * chunks;
    const std::size_t warps = static_cast<std::size_t>(gridDim.x) * p.warps;
    const auto nx = static_cast<std::int64_t>(cols), ny = static_cast<std::int64_t>(rows),
               nz = static_cast<std::int64_t>(depth);
    for (std::size_t t = blockIdx.x * static_cast<std::size_t>(p.warps) + threadIdx.x / 32;
         t < per_grid * batch; t += warps) {
      const std::size_t g = t / per_grid, r = t % per_grid;
      const bool single = r < singles;
      std::size_t c = 0, s = 0;
      if (single) {
        const std::size_t span = per_plane - strips_x * full;
        c = r / span;
        s = r % span;
      } else {
        order.locate(r - singles, strips_x * full, chunks, c, s);
      }
      const std::size_t ty = s / strips_x + (single ? full : 0);
      const auto x0 = static_cast<std::int64_t>(s % strips_x * strip_width<T>);
      const auto z0 = static_cast<std::int64_t>(c * chunk);
      const std::int64_t z1 = z0 + p.z_chunk < nz ? z0 + p.z_chunk : nz;
      const T* grid_in = in + g * in_stride;
      T* grid_out = out + g * out_stride;
      const std::size_t j = ty - full;  // single rows: the first Rad, then those past the strips
      const std::size_t y0 = ty < full                           ? Rad + ty * p.rows
                             : j < static_cast<std::size_t>(Rad) ? j
                                                                 : full * p.rows + j;
      stencil3d_strip<Rad, Shape, p.rows, p.prefetch>(
          grid_in, in_pitch_y, in_pitch_z, grid_out, out_pitch_y, out_pitch_z, nx, ny, nz, x0,
          static_cast<std::int64_t>(y0), ty < full ? p.rows : 1, z0, z1, w, b);
    }
  }
}

template <class T>
cudaError_t validate_stencil3d(const T* in, const T* out, std::size_t batch, std::size_t depth,
                               std::size_t rows, std::size_t cols, std::size_t in_pitch_y,
                               std::size_t in_pitch_z, std::size_t out_pitch_y,
                               std::size_t out_pitch_z, std::size_t in_stride,
                               std::size_t out_stride, const boundary3d& b) {
  constexpr auto limit = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
  std::size_t in_grid = 0, out_grid = 0, in_span = 0, out_span = 0;
  const bool ok =
      in != nullptr && out != nullptr && batch > 0 && depth > 0 && rows > 0 && cols > 0 &&
      depth <= limit && rows <= limit && cols <= limit && in_pitch_y >= cols &&
      out_pitch_y >= cols && known_boundary(b.x) && known_boundary(b.y) && known_boundary(b.z) &&
      (depth == 1 || (in_pitch_z / rows >= in_pitch_y && out_pitch_z / rows >= out_pitch_y)) &&
      checked_span(depth, in_pitch_z, rows, in_pitch_y, cols, in_grid) &&
      checked_span(depth, out_pitch_z, rows, out_pitch_y, cols, out_grid) &&
      (batch == 1 || (in_stride / depth >= in_pitch_z && out_stride / depth >= out_pitch_z &&
                      in_stride >= in_grid && out_stride >= out_grid)) &&
      checked_span(batch, in_stride, 1, 0, in_grid, in_span) &&
      checked_span(batch, out_stride, 1, 0, out_grid, out_span) &&
      disjoint_spans(in, in_span, out, out_span);
  return ok ? cudaSuccess : cudaErrorInvalidValue;
}

template <class Tuning, int Rad, stencil_shape Shape, class T, class Weights>
cudaError_t launch_stencil3d(const T* in, T* out, std::size_t batch, std::size_t depth,
                             std::size_t rows, std::size_t cols, std::size_t in_pitch_y,
                             std::size_t in_pitch_z, std::size_t out_pitch_y,
                             std::size_t out_pitch_z, std::size_t in_stride, std::size_t out_stride,
                             const Weights& w, const boundary3d& b, cudaStream_t stream) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  // The policy the kernels compile (min_blocks capped by the target).
  const stencil3d_policy p = stencil3d_policy_for<Tuning, T, Rad, Shape>(facts.target_arch);
  const std::size_t grid_chunks = ceil_div(depth, static_cast<std::size_t>(p.z_chunk));
  const std::size_t chunks = grid_chunks * batch;
  if (p.warps > 0) {
    const std::size_t strips_x = ceil_div(cols, static_cast<std::size_t>(strip_width<T>));
    const std::size_t strips = strips_x * strip3d_tasks_y(rows, Rad, p.rows) * chunks;
    const std::size_t resident = static_cast<std::size_t>(facts.multiprocessors) *
                                 static_cast<std::size_t>(p.min_blocks) *
                                 static_cast<std::size_t>(p.warps);
    const strip3d_order order =
        strip3d_order::plan(strips_x * strip3d_full(rows, Rad, p.rows), grid_chunks,
                            p.order_warps > 0 ? static_cast<std::size_t>(p.order_warps) : resident);
    return launch<stencil3d_strip_kernel<Tuning, Rad, Shape, T, Weights>>(
        dim3(grid_x(ceil_div(strips, static_cast<std::size_t>(p.warps)))),
        dim3(static_cast<unsigned int>(32 * p.warps)), stream, false, in, out, batch, depth, rows,
        cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z, in_stride, out_stride, w, b, order);
  }
  const std::size_t columns = ceil_div(cols, static_cast<std::size_t>(p.block_x)) *
                              ceil_div(rows, static_cast<std::size_t>(p.block_y * p.items_y)) *
                              chunks;
  return launch<stencil3d_kernel<Tuning, Rad, Shape, T, Weights>>(
      dim3(grid_x(columns)),
      dim3(static_cast<unsigned int>(p.block_x), static_cast<unsigned int>(p.block_y)), stream,
      false, in, out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
      in_stride, out_stride, w, b);
}

}  // namespace gpuprims::detail

// The 3D stencil's kernel (a grid-stride loop over the columns of tiles of a batch of grids, each
// a chunk of planes marched by stencil3d), its argument checks and its launch.
#pragma once

#include <gpuprims/block/stencil3d.cuh>
#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil/kernels2d.cuh>
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
  p.min_blocks = arch::resident_blocks(p.min_blocks, p.block_x * p.block_y, arch);
  return p;
}

template <class Tuning, class T, int Rad, stencil_shape Shape>
inline constexpr stencil3d_policy stencil3d_policy_here =
    stencil3d_policy_for<Tuning, T, Rad, Shape>(GPUPRIMS_TARGET_ARCH);

template <class Tuning, int Rad, stencil_shape Shape, class T>
using stencil3d_here =
    stencil3d<Rad, Shape, T, stencil3d_policy_here<Tuning, T, Rad, Shape>.block_x,
              stencil3d_policy_here<Tuning, T, Rad, Shape>.block_y,
              stencil3d_policy_here<Tuning, T, Rad, Shape>.items_y>;

template <class Tuning, class T, int Rad, stencil_shape Shape>
inline constexpr int stencil3d_threads = stencil3d_policy_here<Tuning, T, Rad, Shape>.block_x *
                                         stencil3d_policy_here<Tuning, T, Rad, Shape>.block_y;

// One block's share: column r of tiles (x fastest) of z chunk c of grid g.
template <class Tuning, int Rad, stencil_shape Shape, class T, class Weights>
__global__ void __launch_bounds__(stencil3d_threads<Tuning, T, Rad, Shape>,
                                  stencil3d_policy_here<Tuning, T, Rad, Shape>.min_blocks)
    stencil3d_kernel(const T* in, T* out, std::size_t batch, std::size_t depth, std::size_t rows,
                     std::size_t cols, std::size_t in_pitch_y, std::size_t in_pitch_z,
                     std::size_t out_pitch_y, std::size_t out_pitch_z, std::size_t in_stride,
                     std::size_t out_stride, Weights w, boundary3d b) {
  wait_for_prior_grids();
  using stencil_t = stencil3d_here<Tuning, Rad, Shape, T>;
  constexpr auto chunk =
      static_cast<std::size_t>(stencil3d_policy_here<Tuning, T, Rad, Shape>.z_chunk);
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
  const stencil3d_policy p = Tuning::select(facts.target_arch, sizeof(T), Rad, Shape);
  const std::size_t columns = ceil_div(cols, static_cast<std::size_t>(p.block_x)) *
                              ceil_div(rows, static_cast<std::size_t>(p.block_y * p.items_y)) *
                              ceil_div(depth, static_cast<std::size_t>(p.z_chunk)) * batch;
  const unsigned int blocks =
      static_cast<unsigned int>(columns < 0x7fffffff ? columns : 0x7fffffff);
  return launch<stencil3d_kernel<Tuning, Rad, Shape, T, Weights>>(
      dim3(blocks),
      dim3(static_cast<unsigned int>(p.block_x), static_cast<unsigned int>(p.block_y)), stream,
      false, in, out, batch, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
      in_stride, out_stride, w, b);
}

}  // namespace gpuprims::detail

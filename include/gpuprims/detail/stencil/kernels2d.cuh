// The 2D stencil's kernel (a grid-stride loop over the tiles of a batch of grids), its argument
// checks and its launch.
#pragma once

#include <gpuprims/block/stencil2d.cuh>
#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace gpuprims::detail {

template <class Tuning, class T, int Rad>
inline constexpr stencil2d_policy stencil2d_policy_here = Tuning::select(GPUPRIMS_TARGET_ARCH,
                                                                         sizeof(T), Rad);

template <class Tuning, int Rad, stencil_shape Shape, class T>
using stencil2d_here = stencil2d<Rad, Shape, T, stencil2d_policy_here<Tuning, T, Rad>.block_x,
                                 stencil2d_policy_here<Tuning, T, Rad>.block_y,
                                 stencil2d_policy_here<Tuning, T, Rad>.items_y>;

template <class Tuning, int Rad, stencil_shape Shape, class T, class Weights>
__global__ void __launch_bounds__(
    stencil2d_policy_here<Tuning, T, Rad>.block_x* stencil2d_policy_here<Tuning, T, Rad>.block_y)
    stencil2d_kernel(const T* in, T* out, std::size_t batch, std::size_t rows, std::size_t cols,
                     std::size_t in_pitch, std::size_t out_pitch, std::size_t in_stride,
                     std::size_t out_stride, Weights w, boundary2d b) {
  using stencil_t = stencil2d_here<Tuning, Rad, Shape, T>;
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

template <class Tuning, int Rad, stencil_shape Shape, class T, class Weights>
cudaError_t launch_stencil2d(const T* in, T* out, std::size_t batch, std::size_t rows,
                             std::size_t cols, std::size_t in_pitch, std::size_t out_pitch,
                             std::size_t in_stride, std::size_t out_stride, const Weights& w,
                             const boundary2d& b, cudaStream_t stream) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const stencil2d_policy p = Tuning::select(facts.target_arch, sizeof(T), Rad);
  const std::size_t tiles = ceil_div(cols, static_cast<std::size_t>(p.block_x)) *
                            ceil_div(rows, static_cast<std::size_t>(p.block_y * p.items_y)) * batch;
  const unsigned int blocks = static_cast<unsigned int>(tiles < 0x7fffffff ? tiles : 0x7fffffff);
  return launch<stencil2d_kernel<Tuning, Rad, Shape, T, Weights>>(
      dim3(blocks),
      dim3(static_cast<unsigned int>(p.block_x), static_cast<unsigned int>(p.block_y)), stream,
      false, in, out, batch, rows, cols, in_pitch, out_pitch, in_stride, out_stride, w, b);
}

}  // namespace gpuprims::detail

// The stencil ladders, rung by rung, for teaching and measuring: the 1D ladder of the reference
// notes, the 2D and the 3D ones, each rung selectable here, tested and benchmarked. Production code
// calls gpuprims::apply_stencil1d, apply_stencil2d and apply_stencil3d.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/ladder/stencil_kernels.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil/kernels.cuh>
#include <gpuprims/detail/stencil/kernels2d.cuh>
#include <gpuprims/detail/stencil/kernels3d.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace gpuprims::ladder {

/// The rungs, in the order the notes climb them (ladder/README.md says what each one changes).
enum class stencil_rung {
  naive,  ///< one output per thread, every input read from global memory (the caches catch reuse)
  shared_halo,  ///< the notes' kernel, fixed: tile + halo in shared memory, one output per thread
  shared_vectorized,  ///< tile + halo in shared memory, one 16-byte vector of outputs per thread
};

/// The shared-tile rungs as a tuning of the library's kernel: 256 threads, Items outputs per thread
/// (0: one 16-byte vector), registers as the library's rule gives them.
template <int Items>
struct stencil_shared_tuning {
  __host__ __device__ static constexpr stencil_policy select(int arch, std::size_t element_size,
                                                             int /*radius*/) {
    stencil_policy p{};
    p.block_threads = 256;
    p.items_per_thread = Items > 0 ? Items : 16 / static_cast<int>(element_size);
    p.min_blocks =
        stencil_tuning::min_blocks_for(arch, element_size, p.items_per_thread, p.block_threads);
    p.dependent_launch = true;
    return p;
  }
};

/// A rung of the ladder, with gpuprims::apply_stencil1d's arguments and checks.
template <int Rad, stencil_rung Rung, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil1d(const T* in, T* out, std::size_t rows, std::size_t cols,
                                          std::size_t in_pitch, std::size_t out_pitch,
                                          const Weights& weights, boundary b = {},
                                          cudaStream_t stream = 0) {
  namespace d = gpuprims::detail;
  d::check_stencil_types<Rad, T, Weights>();
  if (rows == 0 || cols == 0) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(d::validate_stencil(in, out, rows, cols, in_pitch, out_pitch, b));
  if constexpr (Rung == stencil_rung::naive) {
    d::device_facts facts;
    GPUPRIMS_RETURN_IF_ERROR(d::current_device_facts(facts));
    constexpr int block = 256;
    return d::launch<d::stencil_naive_kernel<Rad, block, T, Weights>>(
        dim3(d::grid_x(d::ceil_div(cols, block)), d::grid_yz(rows)), dim3(block), stream,
        d::dependent_launch(true, facts), in, out, rows, cols, in_pitch, out_pitch, weights, b);
  } else {
    using tuning = stencil_shared_tuning<Rung == stencil_rung::shared_halo ? 1 : 0>;
    return d::launch_stencil<tuning, Rad>(in, out, rows, cols, in_pitch, out_pitch, weights, b,
                                          stream);
  }
}

/// One signal of n elements.
template <int Rad, stencil_rung Rung, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil1d(const T* in, T* out, std::size_t n,
                                          const Weights& weights, boundary b = {},
                                          cudaStream_t stream = 0) {
  return apply_stencil1d<Rad, Rung>(in, out, 1, n, n, n, weights, b, stream);
}

/// The 2D rungs (docs/stencil.md says what each one buys).
enum class stencil2d_rung {
  naive,        ///< one output per thread, every neighbour read from global memory
  shared_tile,  ///< a 32 x 8 block stages a 32 x 8 tile and its halo in shared memory
  coarsened,    ///< the same with 32 x 4 threads, 8 outputs each down a column (32 x 32 tiles)
  register_streaming,  ///< gpuprims::apply_stencil2d: warps stream strips of rows in registers
};

/// The shared-tile rungs' shape: BlockX x BlockY threads, ItemsY outputs each.
template <int BlockX, int BlockY, int ItemsY>
struct stencil2d_tile_tuning {
  __host__ __device__ static constexpr stencil2d_policy select(int, std::size_t, int,
                                                               stencil_shape) {
    return {0, 0, 0, 0, BlockX, BlockY, ItemsY};
  }
};

/// A rung of the 2D ladder, with gpuprims::apply_stencil2d's arguments (one grid) and checks.
template <int Rad, stencil_shape Shape, stencil2d_rung Rung, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil2d(const T* in, T* out, std::size_t rows, std::size_t cols,
                                          std::size_t in_pitch, std::size_t out_pitch,
                                          const Weights& weights, boundary2d b = {},
                                          cudaStream_t stream = 0) {
  namespace d = gpuprims::detail;
  static_assert(d::weights2d_radius<Weights> == Rad, "the weights' radius is Rad");
  GPUPRIMS_RETURN_IF_ERROR(
      d::validate_stencil2d(in, out, 1, rows, cols, in_pitch, out_pitch, 0, 0, b));
  if constexpr (Rung == stencil2d_rung::naive) {
    constexpr int block = 256;
    return d::launch<d::stencil2d_naive_kernel<Rad, Shape, block, T, Weights>>(
        dim3(d::grid_x(d::ceil_div(cols, block)), d::grid_yz(rows)), dim3(block), stream, false, in,
        out, rows, cols, in_pitch, out_pitch, weights, b);
  } else {
    using tuning =
        std::conditional_t<Rung == stencil2d_rung::shared_tile, stencil2d_tile_tuning<32, 8, 1>,
                           std::conditional_t<Rung == stencil2d_rung::coarsened,
                                              stencil2d_tile_tuning<32, 4, 8>, stencil2d_tuning>>;
    return d::launch_stencil2d<tuning, Rad, Shape>(in, out, 1, rows, cols, in_pitch, out_pitch, 0,
                                                   0, weights, b, stream);
  }
}

/// The 3D rungs (docs/stencil.md says what each one buys).
enum class stencil3d_rung {
  naive,        ///< one output per thread, every neighbour read from global memory
  shared_ring,  ///< 2.5D: blocks march tiles along z through a ring of planes in shared memory
  register_streaming,  ///< gpuprims::apply_stencil3d: warps march strips along z in registers
};

/// The shared ring as the library tunes it (stencil3d_tuning::shared_ring).
struct stencil3d_ring_tuning {
  __host__ __device__ static constexpr stencil3d_policy select(int, std::size_t element_size,
                                                               int radius, stencil_shape shape) {
    return stencil3d_tuning::shared_ring(element_size, radius, shape);
  }
};

/// A rung of the 3D ladder, with gpuprims::apply_stencil3d's arguments (one grid) and checks.
template <int Rad, stencil_shape Shape, stencil3d_rung Rung, class T, class Weights>
[[nodiscard]] cudaError_t apply_stencil3d(const T* in, T* out, std::size_t depth, std::size_t rows,
                                          std::size_t cols, std::size_t in_pitch_y,
                                          std::size_t in_pitch_z, std::size_t out_pitch_y,
                                          std::size_t out_pitch_z, const Weights& weights,
                                          boundary3d b = {}, cudaStream_t stream = 0) {
  namespace d = gpuprims::detail;
  static_assert(d::weights3d_radius<Weights> == Rad, "the weights' radius is Rad");
  GPUPRIMS_RETURN_IF_ERROR(d::validate_stencil3d(in, out, 1, depth, rows, cols, in_pitch_y,
                                                 in_pitch_z, out_pitch_y, out_pitch_z, 0, 0, b));
  if constexpr (Rung == stencil3d_rung::naive) {
    constexpr int block = 256;
    return d::launch<d::stencil3d_naive_kernel<Rad, Shape, block, T, Weights>>(
        dim3(d::grid_x(d::ceil_div(cols, block)), d::grid_yz(rows * depth)), dim3(block), stream,
        false, in, out, depth, rows, cols, in_pitch_y, in_pitch_z, out_pitch_y, out_pitch_z,
        weights, b);
  } else {
    using tuning = std::conditional_t<Rung == stencil3d_rung::shared_ring, stencil3d_ring_tuning,
                                      stencil3d_tuning>;
    return d::launch_stencil3d<tuning, Rad, Shape>(in, out, 1, depth, rows, cols, in_pitch_y,
                                                   in_pitch_z, out_pitch_y, out_pitch_z, 0, 0,
                                                   weights, b, stream);
  }
}

}  // namespace gpuprims::ladder

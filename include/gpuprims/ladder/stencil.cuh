// The 1D stencil ladder of the reference notes, rung by rung, for teaching and measuring: each rung
// selectable here, tested and benchmarked. Production code calls gpuprims::apply_stencil1d.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/ladder/stencil_kernels.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil/kernels.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>

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

}  // namespace gpuprims::ladder

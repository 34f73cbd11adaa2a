// The transpose ladder of the reference notes, rung by rung, for teaching and measuring: each rung
// selectable here, tested, benchmarked and counter-checked. Production code calls
// gpuprims::transpose.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/features.cuh>
#include <gpuprims/detail/ladder/transpose_kernels.cuh>
#include <gpuprims/detail/transpose/kernels.cuh>
#include <gpuprims/tuning/transpose.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims::ladder {

/// The rungs, in the order the notes climb them (ladder/README.md says what each one changes).
enum class transpose_rung {
  naive,            ///< one element per thread, uncoalesced writes
  shared_unpadded,  ///< a 32 x 32 shared tile: coalesced, 32-way bank conflicts on 4-byte types
  shared_padded,    ///< a 32 x 33 shared tile: coalesced, conflict-free
  register_4x4,     ///< 4 x 4 elements per thread in registers (float4 for 4-byte types)
  register_2x2,     ///< 2 x 2 elements per thread in registers (float2 for 4-byte types)
};

/// The shared-tile rungs as a tuning of the library's kernel: 32 x 32 tiles of 256 threads, Pad
/// elements of padding, registers for a whole SM of threads, no bulk stores.
template <int Pad>
struct transpose_shared32_tuning {
  __host__ __device__ static constexpr transpose_policy select(int arch,
                                                               std::size_t /*element_size*/) {
    transpose_policy p{};
    p.tile = 32;
    p.block_rows = 8;
    p.pad = Pad;
    p.min_blocks = gpuprims::detail::arch::limits_of(arch).max_threads_per_sm / 256;
    // The grid-stride kernel of 32 x 32 tiles spills at 32 registers for every element size.
    p.strided_min_blocks = p.min_blocks / 2;
    p.dependent_launch = true;
    return p;
  }
};

namespace detail {

using gpuprims::detail::transpose_shape;

template <int K, class T>
bool register_tile_aligned(const T* in, const T* out, const transpose_shape& s) {
  if constexpr (gpuprims::detail::register_tile_vectorizable<K, T>) {
    constexpr std::size_t bytes = K * sizeof(T);
    return reinterpret_cast<std::uintptr_t>(in) % bytes == 0 &&
           reinterpret_cast<std::uintptr_t>(out) % bytes == 0 && s.in_pitch % K == 0 &&
           s.out_pitch % K == 0 &&
           (s.batch == 1 || (s.in_batch_stride % K == 0 && s.out_batch_stride % K == 0));
  } else {
    return false;
  }
}

template <transpose_rung Rung, class T>
cudaError_t launch_rung(const T* in, T* out, const transpose_shape& s, cudaStream_t stream) {
  namespace d = gpuprims::detail;
  if constexpr (Rung == transpose_rung::shared_unpadded || Rung == transpose_rung::shared_padded) {
    return d::launch_transpose<
        transpose_shared32_tuning<Rung == transpose_rung::shared_padded ? 1 : 0>>(in, out, s,
                                                                                  stream);
  } else {
    d::device_facts facts;
    GPUPRIMS_RETURN_IF_ERROR(d::current_device_facts(facts));
    const bool dependent = d::dependent_launch(true, facts);
    constexpr int block_x = 32, block_y = 8;
    const dim3 block(block_x, block_y);
    if constexpr (Rung == transpose_rung::naive) {
      return d::launch<d::transpose_naive_kernel<block_x, block_y, T>>(
          d::transpose_grid(s, block_y, block_x), block, stream, dependent, in, out, s);
    } else {
      static_assert(
          std::is_default_constructible_v<T>,
          "the register-tile rungs hold elements in registers: T must be default constructible");
      constexpr int k = Rung == transpose_rung::register_4x4 ? 4 : 2;
      const dim3 grid = d::transpose_grid(s, block_y * k, block_x * k);
      if constexpr (d::register_tile_vectorizable<k, T>) {
        if (register_tile_aligned<k>(in, out, s)) {
          return d::launch<d::transpose_register_kernel<k, true, block_x, block_y, T>>(
              grid, block, stream, dependent, in, out, s);
        }
      }
      return d::launch<d::transpose_register_kernel<k, false, block_x, block_y, T>>(
          grid, block, stream, dependent, in, out, s);
    }
  }
}

}  // namespace detail

/// A rung of the ladder, with gpuprims::transpose's arguments and checks (pitched, batched).
template <transpose_rung Rung, class T>
[[nodiscard]] cudaError_t transpose(const T* in, T* out, std::size_t rows, std::size_t cols,
                                    std::size_t in_pitch, std::size_t out_pitch, std::size_t batch,
                                    std::size_t in_batch_stride, std::size_t out_batch_stride,
                                    cudaStream_t stream = 0) {
  const gpuprims::detail::transpose_shape s{
      rows, cols, in_pitch, out_pitch, batch, in_batch_stride, out_batch_stride};
  return gpuprims::detail::checked_transpose(
      in, out, s, [&](const gpuprims::detail::transpose_shape& checked) {
        return detail::launch_rung<Rung>(in, out, checked, stream);
      });
}

/// One dense row-major matrix.
template <transpose_rung Rung, class T>
[[nodiscard]] cudaError_t transpose(const T* in, T* out, std::size_t rows, std::size_t cols,
                                    cudaStream_t stream = 0) {
  return transpose<Rung>(in, out, rows, cols, cols, rows, 1, rows * cols, rows * cols, stream);
}

}  // namespace gpuprims::ladder

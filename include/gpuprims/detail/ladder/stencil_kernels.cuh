// The stencil ladder's own kernel: the naive rung (the shared-tile rungs are the library's kernel
// with a ladder tuning, ladder/stencil.cuh).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil/tile.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpuprims::detail {

// One output per thread, its 2 x Rad + 1 inputs read from global memory (the L1 and L2 caches
// catch the reuse between neighbours).
template <int Rad, int BlockSize, class T, class Weights>
__global__ void __launch_bounds__(BlockSize)
    stencil_naive_kernel(const T* in, T* out, std::size_t rows, std::size_t n, std::size_t in_pitch,
                         std::size_t out_pitch, Weights w, boundary b) {
  const auto count = static_cast<std::int64_t>(n);
  wait_for_prior_grids();
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const T* in_row = in + row * in_pitch;
    T* out_row = out + row * out_pitch;
    for (std::int64_t i = blockIdx.x * std::int64_t{BlockSize} + threadIdx.x; i < count;
         i += std::int64_t{gridDim.x} * BlockSize) {
      T acc = T(0);
#pragma unroll
      for (int r = 0; r <= 2 * Rad; ++r) {
        acc = fma(static_cast<T>(w[r]), load_with_boundary(in_row, i - Rad + r, count, b), acc);
      }
      out_row[i] = acc;
    }
  }
}

}  // namespace gpuprims::detail

// The folds in rank order behind gpuprims::multi::reduce and all_reduce.
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims::multi::detail {

// *out = (init op) ((p[0] op p[1]) op p[2]) ... op p[ranks - 1]: one thread, a handful of values.
template <class T, class Op>
__global__ void fold_partials_kernel(const T* partials, int ranks, T init, bool with_init, Op op,
                                     T* out) {
  T acc = partials[0];
  for (int r = 1; r < ranks; ++r) {
    acc = op(acc, partials[r]);
  }
  *out = with_init ? op(init, acc) : acc;
}

// out[i] = ((x_0[i] op x_1[i]) op x_2[i]) ... op x_{ranks-1}[i], x_rank = own and the other
// ranks' values in `stage` (rank r < rank at r * stride, r > rank at (r - 1) * stride).
template <class T, class Op>
__global__ void fold_ranks_kernel(const T* own, const T* stage, std::size_t stride, int ranks,
                                  int rank, std::size_t count, Op op, T* out) {
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += step) {
    const auto at = [&](int r) {
      return r == rank ? own[i]
                       : stage[static_cast<std::size_t>(r < rank ? r : r - 1) * stride + i];
    };
    T acc = at(0);
    for (int r = 1; r < ranks; ++r) {
      acc = op(acc, at(r));
    }
    out[i] = acc;
  }
}

}  // namespace gpuprims::multi::detail

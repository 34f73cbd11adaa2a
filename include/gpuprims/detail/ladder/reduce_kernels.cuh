// The reduction ladder driven device-wide the way the reference notes drive it: one launch per
// level, partials in between, each level a block-level algorithm over what each thread gathered.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/reduce/block_front.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims::detail {

// How a thread gathers its value before the block reduces: one element (reduce0-2), two with the
// first add during load (reduce3-5), or a grid-stride loop over many pairs (reduce6, cascading).
enum class ladder_gather { one, two, cascade };

inline constexpr int ladder_block = 256;

template <class BlockAlgorithm, ladder_gather Gather, class T>
__global__ void __launch_bounds__(ladder_block)
    ladder_reduce_kernel(const T* __restrict__ in, std::size_t n, T* out) {
  __shared__ typename BlockAlgorithm::storage storage;
  const std::size_t tid = threadIdx.x;
  T x = 0;
  if constexpr (Gather == ladder_gather::one) {
    const std::size_t i = blockIdx.x * std::size_t{ladder_block} + tid;
    x = i < n ? in[i] : T(0);
  } else {
    const std::size_t step =
        Gather == ladder_gather::two ? n : 2 * std::size_t{ladder_block} * gridDim.x;
    for (std::size_t i = blockIdx.x * 2 * std::size_t{ladder_block} + tid; i < n; i += step) {
      x += in[i];
      if (i + ladder_block < n) {
        x += in[i + ladder_block];
      }
    }
  }
  plus<T> op;
  // The rank as block_reduce computes it (block_rank): with it nvcc 13.0 compiles reduce0's `%`
  // test as a branch, the divergence the notes describe (test/profile checks it); given
  // threadIdx.x, it predicated the tree's body instead.
  const T total = BlockAlgorithm::full(storage, op, x, block_rank<ladder_block>());
  if (tid == 0) {
    out[blockIdx.x] = total;
  }
}

// Elements of one level of partials for n inputs (a level never exceeds the first one).
inline std::size_t ladder_level_capacity(std::size_t n) { return n / ladder_block + 1; }

// One launch per level until one value is left; `partials` holds two levels (ping-pong).
template <class BlockAlgorithm, ladder_gather Gather, class T>
cudaError_t ladder_reduce(const T* in, std::size_t n, T* out, T* partials, cudaStream_t stream) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  // reduce6: one full wave of resident blocks, each thread then sums n / (2 x threads) pairs.
  const std::size_t cascade_blocks = facts.resident_threads() / ladder_block;
  T* levels[2] = {partials, partials + ladder_level_capacity(n)};
  int next = 0;
  const std::size_t per_block = Gather == ladder_gather::one ? ladder_block : 2 * ladder_block;
  while (true) {
    std::size_t blocks = ceil_div(n, per_block);
    if (Gather == ladder_gather::cascade && blocks > cascade_blocks) {
      blocks = cascade_blocks;
    }
    T* level_out = blocks == 1 ? out : levels[next];
    GPUPRIMS_RETURN_IF_ERROR((launch<ladder_reduce_kernel<BlockAlgorithm, Gather, T>>(
        grid_x(blocks), dim3(ladder_block), stream, false, in, n, level_out)));
    if (blocks == 1) {
      return cudaSuccess;
    }
    in = level_out;
    n = blocks;
    next ^= 1;
  }
}

}  // namespace gpuprims::detail

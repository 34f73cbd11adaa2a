// gpuprims::reduce's single-pass kernel, its workspace and its launch. The kernel reads its shape
// from the policy for the architecture it was compiled for; the host picks the same policy by the
// architecture the library's code runs as on the device.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/reduce/block_front.cuh>
#include <gpuprims/detail/reduce/block_warp_shuffle.cuh>
#include <gpuprims/detail/reduce/thread_reduce.cuh>
#include <gpuprims/tuning/reduce.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims::detail {

template <class Tuning, bool Large>
__host__ __device__ constexpr reduce_shape reduce_shape_for(int arch) {
  const reduce_policy p = Tuning::select(arch);
  return Large ? p.large : p.small;
}

template <class Tuning, bool Large>
inline constexpr reduce_shape reduce_shape_here =
    reduce_shape_for<Tuning, Large>(GPUPRIMS_TARGET_ARCH);

// One pass: every block reduces its share and stores a partial; the last block to arrive (an atomic
// counter) reduces the partials and writes op(init, total). The order of every combination is fixed
// by n, the grid and the input's alignment (never by arrival order), so floating-point results
// repeat bit for bit. The counter is reset by the last block, so a workspace stays ready for the
// next call.
template <class Tuning, bool Large, class T, class Op, class Item>
__global__ void __launch_bounds__(reduce_shape_here<Tuning, Large>.block_threads)
    reduce_kernel(const Item* __restrict__ in, std::size_t n, T* out, T init, Op op, T* partials,
                  unsigned int* arrivals) {
  constexpr reduce_shape shape = reduce_shape_here<Tuning, Large>;
  constexpr int block = shape.block_threads;
  static_assert(block % 32 == 0 && block <= 1024,
                "reduce_shape: block_threads a multiple of 32 up to 1024");
  using block_step = block_reduce_warp_shuffle<block, T>;
  __shared__ typename block_step::storage storage;
  __shared__ bool last_block;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * block;
  const std::size_t num_threads = static_cast<std::size_t>(gridDim.x) * block;
  wait_for_prior_grids();
  const accumulator<T, Op> mine =
      thread_reduce<shape.unroll, T>(in, n, op, first + threadIdx.x, num_threads);
  const std::size_t owners = reduce_owners(in, n);  // > first: the host sizes the grid so
  const int valid = owners - first >= block ? block : static_cast<int>(owners - first);
  const T block_total = block_step::partial(storage, op, mine.value, valid, block_rank<block>());
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_total;
    __threadfence();  // the partial is visible before the arrival is counted
    last_block = atomicAdd(arrivals, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) {
    return;
  }
  __threadfence();
  accumulator<T, Op> partial;
  for (unsigned int i = threadIdx.x; i < gridDim.x; i += block) {
    partial.add(load_from_l2(partials + i), op);
  }
  // The storage is reused: the barrier above already follows every read of the first reduction.
  const int valid_partials = gridDim.x < block ? static_cast<int>(gridDim.x) : block;
  const T total =
      block_step::partial(storage, op, partial.value, valid_partials, block_rank<block>());
  if (threadIdx.x == 0) {
    *out = op(init, total);
    *arrivals = 0;
  }
}

template <class T>
__global__ void write_value_kernel(T* out, T value) {
  wait_for_prior_grids();
  *out = value;
}

// Blocks of one shape: enough for the owners of the input, at most `waves` waves of resident blocks
// (each thread then folds many vectors before the block-level step).
inline std::size_t reduce_max_blocks(const reduce_shape& shape, const device_facts& facts) {
  return static_cast<std::size_t>(facts.multiprocessors) *
         static_cast<std::size_t>(facts.max_threads_per_multiprocessor / shape.block_threads) *
         static_cast<std::size_t>(shape.waves);
}

// Workspace: the arrival counter (first, 256-byte aligned), then one partial per block.
template <class T>
constexpr std::size_t reduce_partials_offset() {
  return 256 > alignof(T) ? 256 : alignof(T);
}

template <class T>
std::size_t reduce_workspace_bytes_for(const reduce_policy& p, const device_facts& facts) {
  const std::size_t small = reduce_max_blocks(p.small, facts),
                    large = reduce_max_blocks(p.large, facts);
  return reduce_partials_offset<T>() + (small > large ? small : large) * sizeof(T);
}

template <class Tuning, class Item, class T, class Op>
cudaError_t launch_reduce(const Item* in, T* out, std::size_t n, T init, Op op, void* workspace,
                          std::size_t workspace_bytes, cudaStream_t stream) {
  static_assert(std::is_trivially_copyable_v<T>,
                "the accumulator moves through shuffles: trivially copyable");
  if (out == nullptr || (n > 0 && in == nullptr)) {
    return cudaErrorInvalidValue;
  }
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const reduce_policy p = Tuning::select(facts.target_arch);
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  if (n == 0) {
    return launch<write_value_kernel<T>>(1, 1, stream, dependent, out, init);
  }
  constexpr std::size_t workspace_alignment = alignof(T) > 4 ? alignof(T) : 4;
  if (workspace == nullptr || workspace_bytes < reduce_workspace_bytes_for<T>(p, facts) ||
      reinterpret_cast<std::uintptr_t>(workspace) % workspace_alignment != 0) {
    return cudaErrorInvalidValue;
  }
  const bool large = n > p.small_max_bytes / sizeof(Item);
  const reduce_shape shape = large ? p.large : p.small;
  const std::size_t per_block =
      static_cast<std::size_t>(shape.block_threads) * static_cast<std::size_t>(shape.unroll);
  std::size_t blocks = ceil_div(reduce_owners(in, n), per_block);
  const std::size_t max_blocks = reduce_max_blocks(shape, facts);
  blocks = blocks < max_blocks ? blocks : max_blocks;
  blocks = blocks == 0 ? 1 : blocks;
  auto* bytes = static_cast<unsigned char*>(workspace);
  auto* partials = reinterpret_cast<T*>(bytes + reduce_partials_offset<T>());
  auto* arrivals = reinterpret_cast<unsigned int*>(bytes);
  const auto grid = static_cast<unsigned int>(blocks);
  const dim3 block(static_cast<unsigned int>(shape.block_threads));
  return large ? launch<reduce_kernel<Tuning, true, T, Op, Item>>(
                     grid, block, stream, dependent, in, n, out, init, op, partials, arrivals)
               : launch<reduce_kernel<Tuning, false, T, Op, Item>>(
                     grid, block, stream, dependent, in, n, out, init, op, partials, arrivals);
}

}  // namespace gpuprims::detail

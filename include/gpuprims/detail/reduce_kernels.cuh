// Internals of the device-wide reduction: the per-thread cascade over vector loads and the
// single-pass kernel that finishes in the last block to arrive.
#pragma once

#include <gpuprims/detail/config.cuh>
#include <gpuprims/detail/copy_kernels.cuh>
#include <gpuprims/detail/dependent_launch.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpuprims::detail {

// T in a parameter that must not take part in template argument deduction (std::type_identity_t).
template <class T>
struct identity {
  using type = T;
};
template <class T>
using identity_t = typename identity<T>::type;

// A running value that starts empty, so no identity element is needed.
template <class T, class Op>
struct accumulator {
  T value{};
  bool has = false;
  __device__ __forceinline__ void add(const T& x, Op& op) {
    value = has ? op(value, x) : x;
    has = true;
  }
};

template <class Item>
inline constexpr bool reduce_vectorizable = 16 % sizeof(Item) == 0 && alignof(Item) == sizeof(Item);

// How many leading threads own elements (see thread_reduce); the host sizes the grid from it.
template <class Item>
__host__ __device__ __forceinline__ std::size_t reduce_owners(const Item* in, std::size_t n) {
  if constexpr (reduce_vectorizable<Item>) {
    std::size_t head = ((16 - reinterpret_cast<std::uintptr_t>(in) % 16) % 16) / sizeof(Item);
    head = head < n ? head : n;
    const std::size_t words = (n - head) / (16 / sizeof(Item));
    const std::size_t tail = n - head - words * (16 / sizeof(Item));
    const std::size_t most = head > words ? head : words;
    return most > tail ? most : tail;
  } else {
    return n;
  }
}

// The elements a thread owns: the unaligned head (rank < head), 16-byte words rank, rank + stride,
// ... (several loads in flight before they are combined), and the tail (rank < tail count). A
// thread owns something iff rank < max(head, words, tail): the owners form a prefix of the ranks.
template <int Unroll, class T, class Op, class Item>
__device__ __forceinline__ accumulator<T, Op> thread_reduce(const Item* in, std::size_t n, Op& op, std::size_t rank,
                                                            std::size_t num_threads) {
  constexpr std::size_t per_word = 16 / sizeof(Item);
  accumulator<T, Op> acc;
  std::size_t head = 0, words = 0;
  if constexpr (reduce_vectorizable<Item>) {
    head = ((16 - reinterpret_cast<std::uintptr_t>(in) % 16) % 16) / sizeof(Item);
    head = head < n ? head : n;
    words = (n - head) / per_word;
  } else {
    head = n;  // no vector path: every element goes one by one
  }
  const std::size_t tail_begin = head + words * per_word;

  for (std::size_t i = rank; i < head; i += num_threads) {
    acc.add(static_cast<T>(in[i]), op);
  }
  if constexpr (reduce_vectorizable<Item>) {
    const auto* w = reinterpret_cast<const uint4*>(in + head);
    std::size_t i = rank;
    for (; i + (Unroll - 1) * num_threads < words; i += Unroll * num_threads) {
      uint4 v[Unroll];
#pragma unroll
      for (int k = 0; k < Unroll; ++k) {
        v[k] = w[i + k * num_threads];
      }
#pragma unroll
      for (int k = 0; k < Unroll; ++k) {
        Item items[per_word];
        memcpy(items, &v[k], 16);
#pragma unroll
        for (std::size_t j = 0; j < per_word; ++j) {
          acc.add(static_cast<T>(items[j]), op);
        }
      }
    }
    for (; i < words; i += num_threads) {
      const uint4 v = w[i];
      Item items[per_word];
      memcpy(items, &v, 16);
#pragma unroll
      for (std::size_t j = 0; j < per_word; ++j) {
        acc.add(static_cast<T>(items[j]), op);
      }
    }
  }
  for (std::size_t i = tail_begin + rank; i < n; i += num_threads) {
    acc.add(static_cast<T>(in[i]), op);
  }
  return acc;
}

// Reads what other blocks wrote in this launch from L2 (ld.global.cg), never from a stale L1 line.
template <class T>
__device__ __forceinline__ T load_from_l2(const T* p) {
  using unit = typename vector_word<sizeof(T) % 4 == 0 && alignof(T) >= 4 ? 4 : (sizeof(T) % 2 == 0 && alignof(T) >= 2 ? 2 : 1)>::type;
  unit w[sizeof(T) / sizeof(unit)];
#pragma unroll
  for (std::size_t k = 0; k < sizeof(T) / sizeof(unit); ++k) {
    w[k] = __ldcg(reinterpret_cast<const unit*>(p) + k);
  }
  T value;
  memcpy(&value, w, sizeof(T));
  return value;
}

// One pass: every block reduces its share and stores a partial; the last block to arrive (an atomic
// counter) reduces the partials and writes op(init, total). The order of every combination is fixed
// by n, the grid and the input's alignment (never by arrival order), so floating-point results
// repeat bit for bit. The counter is reset by the last block, so a workspace stays ready for the next call.
template <class BlockReduce, int BlockSize, int Unroll, class T, class Op, class Item>
__global__ void __launch_bounds__(BlockSize)
    reduce_single_pass_kernel(const Item* __restrict__ in, std::size_t n, T* out, T init, Op op, T* partials,
                              unsigned int* arrivals) {
  __shared__ typename BlockReduce::storage storage;
  __shared__ bool last_block;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * BlockSize;
  const std::size_t num_threads = static_cast<std::size_t>(gridDim.x) * BlockSize;
  wait_for_prior_grids();
  const accumulator<T, Op> mine = thread_reduce<Unroll, T>(in, n, op, first + threadIdx.x, num_threads);
  const std::size_t owners = reduce_owners(in, n);  // > first: the host sizes the grid so
  const int valid = owners - first >= BlockSize ? BlockSize : static_cast<int>(owners - first);
  const T block_total = BlockReduce(storage, op).reduce(mine.value, valid);
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
  for (unsigned int i = threadIdx.x; i < gridDim.x; i += BlockSize) {
    partial.add(load_from_l2(partials + i), op);
  }
  // The storage is reused: the barrier above already follows every read of the first reduction.
  const int valid_partials = gridDim.x < BlockSize ? static_cast<int>(gridDim.x) : BlockSize;
  const T total = BlockReduce(storage, op).reduce(partial.value, valid_partials);
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

}  // namespace gpuprims::detail

// The device-wide reduction's per-thread fold: an element-wise head up to 16-byte alignment,
// 16-byte words with several loads in flight, an element-wise tail.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/load.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpuprims::detail {

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
// ... (Unroll loads in flight before they are combined), and the tail (rank < tail count). A
// thread owns something iff rank < max(head, words, tail): the owners form a prefix of the ranks.
template <int Unroll, class T, class Op, class Item>
__device__ __forceinline__ accumulator<T, Op> thread_reduce(const Item* in, std::size_t n, Op& op,
                                                            std::size_t rank,
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
    strided_load_then_consume<Unroll>(
        words, rank, num_threads, [&](std::size_t i) { return w[i]; },
        [&](std::size_t, const uint4& v) {
          Item items[per_word];
          memcpy(items, &v, 16);
#pragma unroll
          for (std::size_t j = 0; j < per_word; ++j) {
            acc.add(static_cast<T>(items[j]), op);
          }
        });
  }
  for (std::size_t i = tail_begin + rank; i < n; i += num_threads) {
    acc.add(static_cast<T>(in[i]), op);
  }
  return acc;
}

// Reads what other blocks wrote in this launch from L2 (ld.global.cg), never from a stale L1 line.
template <class T>
__device__ __forceinline__ T load_from_l2(const T* p) {
  constexpr std::size_t unit_bytes =
      sizeof(T) % 4 == 0 && alignof(T) >= 4 ? 4 : (sizeof(T) % 2 == 0 && alignof(T) >= 2 ? 2 : 1);
  using unit = typename vector_word<unit_bytes>::type;
  unit w[sizeof(T) / sizeof(unit)];
#pragma unroll
  for (std::size_t k = 0; k < sizeof(T) / sizeof(unit); ++k) {
    w[k] = __ldcg(reinterpret_cast<const unit*>(p) + k);
  }
  T value;
  memcpy(&value, w, sizeof(T));
  return value;
}

}  // namespace gpuprims::detail

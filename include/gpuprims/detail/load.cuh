// The loop every memory-bound primitive here runs: several independent loads in flight per thread
// before the first of them is consumed. A memory-bound kernel needs bytes in flight, and a load
// whose value is used by the next instruction keeps one. Copy, the skewed copy, the reduction's
// per-thread fold, the transpose's tile load and the stencil's tile load all go through these.
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims::detail {

// The unsigned word that moves `Bytes` bytes in one instruction: uint4 is what makes ptxas emit
// LDG.E.128 / STG.E.128, uint2 gives the 64-bit forms.
template <std::size_t Bytes>
struct vector_word;
template <>
struct vector_word<1> {
  using type = unsigned char;
};
template <>
struct vector_word<2> {
  using type = unsigned short;
};
template <>
struct vector_word<4> {
  using type = unsigned int;
};
template <>
struct vector_word<8> {
  using type = uint2;
};
template <>
struct vector_word<16> {
  using type = uint4;
};

// One 16-byte global load that stays one instruction (LDG.E.128): where the word's four 32-bit
// parts end up as separate items in registers, the compiler splits a plain uint4 load into four
// 32-bit loads. `p` must be 16-byte aligned.
__device__ __forceinline__ uint4 load16(const void* p) {
  uint4 v;
  asm("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(p));
  return v;
}

// One 16-byte global store that stays one instruction (STG.E.128), for the same reason. `p` must
// be 16-byte aligned.
__device__ __forceinline__ void store16(void* p, const uint4& v) {
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
               "r"(v.w)
               : "memory");
}

// Asks the L2 to fetch the line holding global `p` from DRAM, no register waiting for it (a load
// issued early without the register it would hold until it lands). `p` must lie inside an
// allocation.
__device__ __forceinline__ void prefetch_l2(const void* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(__cvta_generic_to_global(p)));
}

// load(k) for k in [0, N), all issued, then consume(k, value) for each in order.
template <int N, class Load, class Consume>
__device__ __forceinline__ void load_then_consume(Load&& load, Consume&& consume) {
  decltype(load(0)) v[N];
#pragma unroll
  for (int k = 0; k < N; ++k) {
    v[k] = load(k);
  }
#pragma unroll
  for (int k = 0; k < N; ++k) {
    consume(k, v[k]);
  }
}

// Indices rank, rank + num_threads, ... below `count` (a grid- or group-stride loop), Unroll of
// them loaded before any is consumed, then the remainder one at a time. consume(i, value) sees the
// indices of one thread in increasing order.
template <int Unroll, class Load, class Consume>
__device__ __forceinline__ void strided_load_then_consume(std::size_t count, std::size_t rank,
                                                          std::size_t num_threads, Load&& load,
                                                          Consume&& consume) {
  static_assert(Unroll >= 1, "Unroll counts loads in flight per thread: at least 1");
  std::size_t i = rank;
  if constexpr (Unroll > 1) {
    const std::size_t round = static_cast<std::size_t>(Unroll) * num_threads;
    for (; i + (Unroll - 1) * num_threads < count; i += round) {
      load_then_consume<Unroll>(
          [&](int k) { return load(i + k * num_threads); },
          [&](int k, const auto& value) { consume(i + k * num_threads, value); });
    }
  }
  for (; i < count; i += num_threads) {
    consume(i, load(i));
  }
}

}  // namespace gpuprims::detail

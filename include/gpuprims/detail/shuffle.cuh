// Warp shuffles of any trivially copyable type, moved as 32-bit words.
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>

namespace gpuprims::detail {

inline constexpr unsigned int full_warp = 0xffffffffu;

// This thread's lane in its warp, whatever the block's shape.
__device__ __forceinline__ int lane_id() {
  int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

// `b`, hidden from the optimizer: a lane-dependent condition it would otherwise prove the same in
// every round of an unrolled loop and hoist out of it (loop unswitching), a copy of the loop for
// each side. The warp is then split around the copies' shuffles, and every shuffle takes the
// divergent path (BRA.DIV: WARPSYNC.COLLECTIVE, SHFL, ENDCOLLECTIVE). (detail/stencil/fused.cuh's
// opaque_select is the same remedy for a choice between two values; notes/design.md.)
__device__ __forceinline__ bool opaque(bool b) {
  unsigned int v = b ? 1u : 0u;
  asm volatile("" : "+r"(v));
  return v != 0;
}

// T moved as 32-bit words, each through shuffle(word).
template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(const T& value, Shuffle shuffle) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned int w[words] = {};
  memcpy(w, &value, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) {
    w[i] = shuffle(w[i]);
  }
  T out;
  memcpy(&out, w, sizeof(T));
  return out;
}

// value of lane (this lane + delta); lanes past the warp's end get their own value back.
template <class T>
__device__ __forceinline__ T shuffle_down(const T& value, unsigned int delta) {
  return shuffle_words(value,
                       [delta](unsigned int w) { return __shfl_down_sync(full_warp, w, delta); });
}

// value of lane (this lane - delta) within groups of `width` lanes (a power of two up to 32);
// lanes below delta in their group get their own value back.
template <class T>
__device__ __forceinline__ T shuffle_up(const T& value, unsigned int delta, int width = 32) {
  return shuffle_words(
      value, [delta, width](unsigned int w) { return __shfl_up_sync(full_warp, w, delta, width); });
}

// value of lane (this lane xor mask).
template <class T>
__device__ __forceinline__ T shuffle_xor(const T& value, int mask) {
  return shuffle_words(value,
                       [mask](unsigned int w) { return __shfl_xor_sync(full_warp, w, mask); });
}

// value of lane `source` (of this lane's group of `width` lanes).
template <class T>
__device__ __forceinline__ T shuffle_from(const T& value, int source, int width = 32) {
  return shuffle_words(
      value, [source, width](unsigned int w) { return __shfl_sync(full_warp, w, source, width); });
}

}  // namespace gpuprims::detail

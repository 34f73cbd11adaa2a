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

// value of lane (this lane + delta); lanes past the warp's end get their own value back.
template <class T>
__device__ __forceinline__ T shuffle_down(const T& value, unsigned int delta) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned int w[words] = {};
  memcpy(w, &value, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) {
    w[i] = __shfl_down_sync(full_warp, w[i], delta);
  }
  T out;
  memcpy(&out, w, sizeof(T));
  return out;
}

// value of lane (this lane xor mask).
template <class T>
__device__ __forceinline__ T shuffle_xor(const T& value, int mask) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned int w[words] = {};
  memcpy(w, &value, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) {
    w[i] = __shfl_xor_sync(full_warp, w[i], mask);
  }
  T out;
  memcpy(&out, w, sizeof(T));
  return out;
}

}  // namespace gpuprims::detail

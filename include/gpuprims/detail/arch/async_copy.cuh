// Copies from global to shared memory in the background (cp.async, sm_80 and later): a thread
// starts 16-byte copies, groups them, and later waits for all but its newest groups; the
// bytes in flight hold no registers. Each thread waits for its own copies and reads only what it
// copied (no barrier needed). Before sm_80 the same calls copy at once through registers (a load
// and a shared store), so callers keep one code path.
#pragma once

#include <gpuprims/detail/arch/features.cuh>

#include <cuda_runtime.h>

namespace gpuprims::detail::arch {

// Starts copying 16 bytes from global `from` to shared `to` (both 16-byte aligned) into this
// thread's current group (.cg: through the L2 only, as streamed data should).
__device__ __forceinline__ void async_copy(void* to, const void* from) {
#if defined(__CUDA_ARCH__)
  if constexpr (has_async_copy) {
    const auto shared = static_cast<unsigned int>(__cvta_generic_to_shared(to));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared),
                 "l"(__cvta_generic_to_global(from))
                 : "memory");
  } else {
    *static_cast<uint4*>(to) = *static_cast<const uint4*>(from);
  }
#endif
}

// Starts copying Bytes (4, 8 or 16) from global `from` to shared `to` (both Bytes-aligned) into
// this thread's current group (.ca: copies under 16 bytes go through the L1).
template <int Bytes>
__device__ __forceinline__ void async_copy_small(void* to, const void* from) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
#if defined(__CUDA_ARCH__)
  if constexpr (has_async_copy) {
    const auto shared = static_cast<unsigned int>(__cvta_generic_to_shared(to));
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(shared),
                 "l"(__cvta_generic_to_global(from)), "n"(Bytes)
                 : "memory");
  } else {
    struct alignas(Bytes) chunk {
      unsigned char b[Bytes];
    };
    *static_cast<chunk*>(to) = *static_cast<const chunk*>(from);
  }
#endif
}

// Closes this thread's current group of copies (an empty group is allowed).
__device__ __forceinline__ void async_copy_commit() {
#if defined(__CUDA_ARCH__)
  if constexpr (has_async_copy) {
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
#endif
}

// Returns once all but the newest `Pending` of this thread's groups have landed in shared memory.
template <int Pending>
__device__ __forceinline__ void async_copy_wait() {
#if defined(__CUDA_ARCH__)
  if constexpr (has_async_copy) {
    asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
  }
#endif
}

}  // namespace gpuprims::detail::arch

// Bulk copies from shared to global memory (cp.async.bulk, sm_90 and later): the copy engine
// (TMA) moves a contiguous run of bytes without threads or registers holding it.
#pragma once

#include <gpuprims/detail/config.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims::detail {

// Bulk copies read shared memory through the async proxy: a thread that wrote the bytes with
// ordinary stores fences before the thread issuing the copy is released by a barrier.
__device__ __forceinline__ void fence_shared_for_bulk_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

// Starts a copy of `bytes` from shared `from` to global `to`: both 16-byte aligned, bytes a
// multiple of 16. Before sm_90 there is no such copy; callers choose another path there.
__device__ __forceinline__ void bulk_store(void* to, const void* from, unsigned int bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const auto shared = static_cast<unsigned int>(__cvta_generic_to_shared(from));
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(__cvta_generic_to_global(to)),
               "r"(shared), "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#endif
}

// Returns once this thread's bulk copies have read their shared source: the block may then reuse
// or release that memory. The writes to global memory complete with the grid.
__device__ __forceinline__ void wait_bulk_store_reads() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#endif
}

}  // namespace gpuprims::detail

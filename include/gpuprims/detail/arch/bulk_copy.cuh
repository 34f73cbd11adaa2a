// Bulk copies from shared to global memory (cp.async.bulk, sm_90 and later): the copy engine (TMA)
// moves a contiguous run of bytes without threads or registers holding it. Each wrapper fails to
// compile for an architecture without bulk copies: callers ask `has_bulk_copy` (their policy)
// first.
#pragma once

#include <gpuprims/detail/arch/features.cuh>

namespace gpuprims::detail::arch {

template <int Arch>
inline constexpr bool bulk_copy_usable = Arch == 0 || supports(feature::bulk_copy, Arch);

// Bulk copies read shared memory through the async proxy: a thread that wrote the bytes with
// ordinary stores fences before the thread issuing the copy is released by a barrier.
template <int Arch = target>
__device__ __forceinline__ void fence_shared_for_bulk_copies() {
  static_assert(bulk_copy_usable<Arch>,
                "bulk copies need sm_90 or later: ask arch::has_bulk_copy first");
#if defined(__CUDA_ARCH__)
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

// Starts a copy of `bytes` from shared `from` to global `to`: both 16-byte aligned, bytes a
// multiple of 16.
template <int Arch = target>
__device__ __forceinline__ void bulk_store(void* to, const void* from, unsigned int bytes) {
  static_assert(bulk_copy_usable<Arch>,
                "bulk copies need sm_90 or later: ask arch::has_bulk_copy first");
#if defined(__CUDA_ARCH__)
  const auto shared = static_cast<unsigned int>(__cvta_generic_to_shared(from));
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
                   __cvta_generic_to_global(to)),
               "r"(shared), "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#endif
}

// Returns once this thread's bulk copies have read their shared source: the block may then reuse
// or release that memory. The writes to global memory complete with the grid.
template <int Arch = target>
__device__ __forceinline__ void wait_bulk_store_reads() {
  static_assert(bulk_copy_usable<Arch>,
                "bulk copies need sm_90 or later: ask arch::has_bulk_copy first");
#if defined(__CUDA_ARCH__)
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#endif
}

}  // namespace gpuprims::detail::arch

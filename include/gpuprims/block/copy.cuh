// vector_copy<N>: a copy that moves 4-, 8- or 16-byte vectors per instruction, handles any length
// and any alignment, and never issues a misaligned vector access. A function over any group of
// cooperating threads (a warp, a block, the whole grid), called from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/copy/vector_copy.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace gpuprims {

/// Copies in[0, n) to out[0, n) with the `num_threads` threads that call it, `rank` being this
/// thread's index among them (a block: threadIdx.x, blockDim.x). Moves N elements per access where
/// the pointers allow it (N == 1, or N * sizeof(T) of 4, 8 or 16 bytes): mutually aligned pointers
/// peel a few elements to reach alignment, mutually misaligned ones fall back to a narrower width.
/// Unroll is the number of vectors each thread keeps in flight. in and out must not overlap, and
/// every calling thread must pass the same in, out, n and num_threads.
///
///   gpuprims::vector_copy<4>(in, out, n, threadIdx.x, blockDim.x);   // float: 16-byte accesses
template <int N, int Unroll = 1, class T>
__device__ __forceinline__ void vector_copy(const T* in, T* out, std::size_t n, std::size_t rank,
                                            std::size_t num_threads) {
  static_assert(std::is_trivially_copyable_v<T>,
                "vector_copy moves bytes: T must be trivially copyable");
  detail::vector_copy_impl<N, Unroll>(in, out, n, rank, num_threads);
}

/// The whole grid cooperates (a grid-stride copy): call it from every thread of a 1-D launch.
///
///   __global__ void k(const float* in, float* out, std::size_t n) {
///     gpuprims::vector_copy<4>(in, out, n);
///   }
template <int N, int Unroll = 1, class T>
__device__ __forceinline__ void vector_copy(const T* in, T* out, std::size_t n) {
  const std::size_t rank = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t num_threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  vector_copy<N, Unroll>(in, out, n, rank, num_threads);
}

}  // namespace gpuprims

// vector_copy<N>: a copy that moves 4-, 8- or 16-byte vectors per instruction, handles any length and
// any alignment, and never issues a misaligned vector access. Device template first, host launchers
// below it.
#pragma once

#include <gpuprims/detail/config.cuh>
#include <gpuprims/detail/copy_kernels.cuh>
#include <gpuprims/detail/launch.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
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
  static_assert(std::is_trivially_copyable_v<T>, "vector_copy moves bytes: T must be trivially copyable");
  detail::vector_copy_impl<N, Unroll>(in, out, n, rank, num_threads);
}

/// The whole grid cooperates (a grid-stride copy): call it from every thread of a 1-D launch.
///
///   __global__ void k(const float* in, float* out, std::size_t n) { gpuprims::vector_copy<4>(in, out, n); }
template <int N, int Unroll = 1, class T>
__device__ __forceinline__ void vector_copy(const T* in, T* out, std::size_t n) {
  const std::size_t rank = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t num_threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  vector_copy<N, Unroll>(in, out, n, rank, num_threads);
}

namespace detail {

template <class T>
cudaError_t validate_copy(const T* in, const T* out, std::size_t n) {
  std::size_t bytes = 0;
  if (!checked_bytes<T>(n, bytes) || in == nullptr || out == nullptr ||
      ranges_overlap(in, bytes, out, bytes)) {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

// Returns `launch(unroll, blocks)` (the launcher's kernel launch) for `words` vector words, with the
// unroll and grid that the input's size calls for on the current device.
template <class Launch>
cudaError_t launch_copy(std::size_t words, Launch launch) {
  device_shape shape;
  GPUPRIMS_RETURN_IF_ERROR(query_device_shape(shape));
  const std::size_t resident_threads = static_cast<std::size_t>(shape.multiprocessors) *
                                       static_cast<std::size_t>(shape.max_threads_per_multiprocessor);
  if (words < resident_threads * copy_unroll_below) {
    return launch(std::integral_constant<int, copy_unroll>{},
                  covering_blocks(words, std::size_t{copy_block_threads} * copy_unroll));
  }
  return launch(std::integral_constant<int, 1>{}, covering_blocks(words, copy_block_threads));
}

template <int Lane>
cudaError_t launch_copy_skewed(const unsigned char* in, unsigned char* out, std::size_t bytes,
                               unsigned int shift_bits, cudaStream_t stream) {
  return launch_copy(bytes / 16 + 1, [&](auto unroll, unsigned int blocks) {
    return launch<copy_skewed_kernel<Lane, decltype(unroll)::value, copy_block_threads>>(
        blocks, copy_block_threads, stream, in, out, bytes, shift_bits);
  });
}

}  // namespace detail

/// Launches vector_copy<N> over in[0, n) -> out[0, n) on `stream`. Asynchronous; returns
/// cudaErrorInvalidValue (launching nothing) for a null pointer with n > 0 or overlapping ranges,
/// cudaSuccess without a launch for n == 0.
///
///   cudaError_t e = gpuprims::copy_vectorized<4>(d_in, d_out, n, stream);
template <int N, class T>
[[nodiscard]] cudaError_t copy_vectorized(const T* in, T* out, std::size_t n,
                                          cudaStream_t stream = 0) {
  static_assert(std::is_trivially_copyable_v<T>, "copy moves bytes: T must be trivially copyable");
  static_assert(detail::is_legal_vector<N, T>,
                "copy_vectorized<N, T>: N must be 1, or N * sizeof(T) must be 4, 8 or 16 bytes");
  if (n == 0) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_copy(in, out, n));
  return detail::launch_copy((n + N - 1) / N, [&](auto unroll, unsigned int blocks) {
    return detail::launch<detail::vector_copy_kernel<N, decltype(unroll)::value, detail::copy_block_threads, T>>(
        blocks, detail::copy_block_threads, stream, in, out, n);
  });
}

/// Copies in[0, n) -> out[0, n) with 16-byte accesses whatever the pointers' alignment: when in and
/// out are equally aligned modulo 16 a few leading elements are peeled; when they are not, each
/// aligned 16-byte store is assembled from the two aligned source words it straddles. Any trivially
/// copyable T (a 12-byte struct too). Same contract as copy_vectorized.
///
///   cudaError_t e = gpuprims::copy(d_in, d_out, n, stream);
template <class T>
[[nodiscard]] cudaError_t copy(const T* in, T* out, std::size_t n, cudaStream_t stream = 0) {
  static_assert(std::is_trivially_copyable_v<T>, "copy moves bytes: T must be trivially copyable");
  if (n == 0) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_copy(in, out, n));
  const auto skew = (reinterpret_cast<std::uintptr_t>(in) - reinterpret_cast<std::uintptr_t>(out)) % 16;
  constexpr bool word_sized = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8;
  if constexpr (word_sized && alignof(T) >= sizeof(T)) {
    if (skew == 0) {  // peel whole elements, then 16-byte vectors of T
      return copy_vectorized<16 / sizeof(T)>(in, out, n, stream);
    }
  }
  const auto* src = reinterpret_cast<const unsigned char*>(in);
  auto* dst = reinterpret_cast<unsigned char*>(out);
  const std::size_t bytes = n * sizeof(T);
  const auto shift_bits = static_cast<unsigned int>(8 * (skew % 4));
  switch (skew / 4) {
    case 0:
      if (skew == 0) {
        return detail::launch_copy(bytes / 16 + 1, [&](auto unroll, unsigned int blocks) {
          return detail::launch<detail::copy_aligned_bytes_kernel<decltype(unroll)::value, detail::copy_block_threads>>(
              blocks, detail::copy_block_threads, stream, src, dst, bytes);
        });
      }
      return detail::launch_copy_skewed<0>(src, dst, bytes, shift_bits, stream);
    case 1:
      return detail::launch_copy_skewed<1>(src, dst, bytes, shift_bits, stream);
    case 2:
      return detail::launch_copy_skewed<2>(src, dst, bytes, shift_bits, stream);
    default:
      return detail::launch_copy_skewed<3>(src, dst, bytes, shift_bits, stream);
  }
}

}  // namespace gpuprims

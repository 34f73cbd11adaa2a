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
/// Unroll is the number of vectors each thread keeps in flight. Every calling thread must pass the
/// same in, out, n and num_threads.
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

// Calls `launch(unroll, blocks)` (the launcher's kernel launch) for `words` vector words, with the
// unroll and grid that the input's size calls for on the current device.
template <class Launch>
cudaError_t launch_copy(std::size_t words, Launch launch) {
  device_shape shape;
  GPUPRIMS_RETURN_IF_ERROR(query_device_shape(shape));
  const std::size_t resident_threads = static_cast<std::size_t>(shape.multiprocessors) *
                                       static_cast<std::size_t>(shape.max_threads_per_multiprocessor);
  if (words < resident_threads * copy_unroll_below) {
    launch(std::integral_constant<int, copy_unroll>{},
           covering_blocks(words, std::size_t{copy_block_threads} * copy_unroll));
  } else {
    launch(std::integral_constant<int, 1>{}, covering_blocks(words, copy_block_threads));
  }
  return cudaGetLastError();
}

template <std::size_t Width>
cudaError_t launch_copy_bytes(const unsigned char* in, unsigned char* out, std::size_t bytes,
                              cudaStream_t stream) {
  return launch_copy(bytes / Width + 1, [&](auto unroll, unsigned int blocks) {
    copy_bytes_kernel<Width, decltype(unroll)::value, copy_block_threads>
        <<<blocks, copy_block_threads, 0, stream>>>(in, out, bytes);
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
    detail::vector_copy_kernel<N, decltype(unroll)::value, detail::copy_block_threads>
        <<<blocks, detail::copy_block_threads, 0, stream>>>(in, out, n);
  });
}

/// Copies in[0, n) -> out[0, n) with the widest access the pointers allow: the bytes are moved in
/// 16-byte words when in and out are equally aligned modulo 16, else 8, 4, 2 or 1. Any trivially
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
  const auto* src = reinterpret_cast<const unsigned char*>(in);
  auto* dst = reinterpret_cast<unsigned char*>(out);
  const std::size_t bytes = n * sizeof(T);
  // Pointers equal modulo W can both be aligned to W by peeling the same number of bytes.
  const auto skew = reinterpret_cast<std::uintptr_t>(src) - reinterpret_cast<std::uintptr_t>(dst);
  if (skew % 16 == 0) {
    return detail::launch_copy_bytes<16>(src, dst, bytes, stream);
  }
  if (skew % 8 == 0) {
    return detail::launch_copy_bytes<8>(src, dst, bytes, stream);
  }
  if (skew % 4 == 0) {
    return detail::launch_copy_bytes<4>(src, dst, bytes, stream);
  }
  if (skew % 2 == 0) {
    return detail::launch_copy_bytes<2>(src, dst, bytes, stream);
  }
  return detail::launch_copy_bytes<1>(src, dst, bytes, stream);
}

}  // namespace gpuprims

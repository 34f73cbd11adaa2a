// Host launchers of the copy: gpuprims::copy (any type, any alignment) and copy_vectorized<N>.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/copy/kernels.cuh>
#include <gpuprims/tuning/copy.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims {

/// Launches vector_copy<N> over in[0, n) -> out[0, n) on `stream`. Asynchronous; returns
/// cudaErrorInvalidValue (launching nothing) for a null pointer with n > 0, overlapping ranges or a
/// byte count that overflows size_t; cudaSuccess without a launch for n == 0.
///
///   cudaError_t e = gpuprims::copy_vectorized<4>(d_in, d_out, n, stream);
template <int N, class Tuning = copy_tuning, class T>
[[nodiscard]] cudaError_t copy_vectorized(const T* in, T* out, std::size_t n,
                                          cudaStream_t stream = 0) {
  static_assert(std::is_trivially_copyable_v<T>, "copy moves bytes: T must be trivially copyable");
  static_assert(detail::is_legal_vector<N, T>,
                "copy_vectorized<N, T>: N must be 1, or N * sizeof(T) must be 4, 8 or 16 bytes");
  if (n == 0) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_copy(in, out, n));
  return detail::launch_copy<Tuning>(
      detail::ceil_div(n, N), [&](auto unrolled, unsigned int blocks, dim3 block, bool dependent) {
        return detail::launch<detail::vector_copy_kernel<Tuning, N, decltype(unrolled)::value, T>>(
            blocks, block, stream, dependent, in, out, n);
      });
}

/// Copies in[0, n) -> out[0, n) with 16-byte accesses whatever the pointers' alignment: when in and
/// out are equally aligned modulo 16 a few leading elements are peeled; when they are not, each
/// aligned 16-byte store is assembled from the two aligned source words it straddles. Any trivially
/// copyable T (a 12-byte struct too). Same contract as copy_vectorized.
///
///   cudaError_t e = gpuprims::copy(d_in, d_out, n, stream);
template <class Tuning = copy_tuning, class T>
[[nodiscard]] cudaError_t copy(const T* in, T* out, std::size_t n, cudaStream_t stream = 0) {
  static_assert(std::is_trivially_copyable_v<T>, "copy moves bytes: T must be trivially copyable");
  if (n == 0) {
    return cudaSuccess;
  }
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_copy(in, out, n));
  const auto skew =
      (reinterpret_cast<std::uintptr_t>(in) - reinterpret_cast<std::uintptr_t>(out)) % 16;
  constexpr bool word_sized = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8;
  if constexpr (word_sized && alignof(T) >= sizeof(T)) {
    if (skew == 0) {  // peel whole elements, then 16-byte vectors of T
      return copy_vectorized<16 / sizeof(T), Tuning>(in, out, n, stream);
    }
  }
  const auto* src = reinterpret_cast<const unsigned char*>(in);
  auto* dst = reinterpret_cast<unsigned char*>(out);
  const std::size_t bytes = n * sizeof(T);
  const auto shift_bits = static_cast<unsigned int>(8 * (skew % 4));
  switch (skew / 4) {
    case 0:
      if (skew == 0) {
        return detail::launch_copy<Tuning>(
            bytes / 16 + 1, [&](auto unrolled, unsigned int blocks, dim3 block, bool dependent) {
              return detail::launch<
                  detail::copy_aligned_bytes_kernel<Tuning, decltype(unrolled)::value>>(
                  blocks, block, stream, dependent, src, dst, bytes);
            });
      }
      return detail::launch_copy_skewed<Tuning, 0>(src, dst, bytes, shift_bits, stream);
    case 1:
      return detail::launch_copy_skewed<Tuning, 1>(src, dst, bytes, shift_bits, stream);
    case 2:
      return detail::launch_copy_skewed<Tuning, 2>(src, dst, bytes, shift_bits, stream);
    default:
      return detail::launch_copy_skewed<Tuning, 3>(src, dst, bytes, shift_bits, stream);
  }
}

}  // namespace gpuprims

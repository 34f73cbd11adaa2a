// Argument checks shared by the host launchers: they run before any CUDA call, so a bad call
// returns cudaErrorInvalidValue and launches nothing.
#pragma once

#include <gpuprims/config.cuh>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace gpuprims::detail {

// True when [a, a + a_bytes) and [b, b + b_bytes) share a byte. Out-of-place primitives reject
// this: a kernel that reads what another block already wrote gives order-dependent results.
inline bool ranges_overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  const auto a0 = reinterpret_cast<std::uintptr_t>(a);
  const auto b0 = reinterpret_cast<std::uintptr_t>(b);
  return a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

// Bytes of n elements of T, or false when that does not fit in size_t (or in the address space).
template <class T>
bool checked_bytes(std::size_t n, std::size_t& bytes) {
  if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
    return false;
  }
  bytes = n * sizeof(T);
  return true;
}

// Elements spanned by `batch` matrices of rows x cols (row pitch `pitch`, batch_stride apart), or
// false when that does not fit in size_t. rows and batch >= 1.
inline bool checked_span(std::size_t batch, std::size_t batch_stride, std::size_t rows,
                         std::size_t pitch, std::size_t cols, std::size_t& span) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  if ((rows - 1) > 0 && pitch > (max - cols) / (rows - 1)) {
    return false;
  }
  const std::size_t one = (rows - 1) * pitch + cols;
  if (batch > 1 && batch_stride > (max - one) / (batch - 1)) {
    return false;
  }
  span = (batch - 1) * batch_stride + one;
  return true;
}

// The spans of an input and an output matrix batch (elements of T), checked for overflow and for
// overlap: true when both fit in the address space and share no byte.
template <class T>
bool disjoint_spans(const T* in, std::size_t in_span, const T* out, std::size_t out_span) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  return in_span <= max / sizeof(T) && out_span <= max / sizeof(T) &&
         !ranges_overlap(in, in_span * sizeof(T), out, out_span * sizeof(T));
}

}  // namespace gpuprims::detail

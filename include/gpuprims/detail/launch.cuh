// Host-side helpers shared by every launch wrapper: argument checks and grid sizing.
#pragma once

#include <gpuprims/detail/config.cuh>
#include <gpuprims/detail/dependent_launch.cuh>

#include <cuda_runtime.h>

#include <atomic>
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
inline bool checked_span(std::size_t batch, std::size_t batch_stride, std::size_t rows, std::size_t pitch,
                         std::size_t cols, std::size_t& span) {
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

struct device_shape {
  int multiprocessors = 0;
  int max_threads_per_multiprocessor = 0;
};

// The current device's shape. Read once per device and cached: a launcher's host overhead is what
// small (L2-sized) calls are bound by. No synchronisation, no allocation.
inline cudaError_t query_device_shape(device_shape& shape) {
  constexpr int max_cached_devices = 64;
  static std::atomic<long long> cache[max_cached_devices] = {};  // sms << 32 | threads; 0: unread
  int device = 0;
  GPUPRIMS_RETURN_IF_ERROR(cudaGetDevice(&device));
  if (device >= 0 && device < max_cached_devices) {
    const long long packed = cache[device].load(std::memory_order_relaxed);
    if (packed != 0) {
      shape.multiprocessors = static_cast<int>(packed >> 32);
      shape.max_threads_per_multiprocessor = static_cast<int>(packed & 0xffffffff);
      return cudaSuccess;
    }
  }
  GPUPRIMS_RETURN_IF_ERROR(
      cudaDeviceGetAttribute(&shape.multiprocessors, cudaDevAttrMultiProcessorCount, device));
  GPUPRIMS_RETURN_IF_ERROR(cudaDeviceGetAttribute(&shape.max_threads_per_multiprocessor,
                                                  cudaDevAttrMaxThreadsPerMultiProcessor, device));
  if (device >= 0 && device < max_cached_devices) {
    cache[device].store(static_cast<long long>(shape.multiprocessors) << 32 | shape.max_threads_per_multiprocessor,
                        std::memory_order_relaxed);
  }
  return cudaSuccess;
}

// Blocks that cover `work` in chunks of `work_per_block`, clamped to gridDim.x's 2^31 - 1 (the
// kernels are grid-stride loops, so a clamped grid still covers everything).
inline unsigned int covering_blocks(std::size_t work, std::size_t work_per_block) {
  constexpr std::size_t max_blocks = 0x7fffffff;
  const std::size_t blocks = (work + work_per_block - 1) / work_per_block;
  return static_cast<unsigned int>(blocks == 0 ? 1 : (blocks < max_blocks ? blocks : max_blocks));
}

}  // namespace gpuprims::detail

// Shared helpers of the GPU tests: CUDA checks, device buffers, random data, poison and compare.
#pragma once

#include "catch.hpp"

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace gpuprims::test {

inline constexpr int skip_exit_code = 77;

// Random inputs never contain this byte, so an output byte still equal to it was never written.
inline constexpr unsigned char poison_byte = 0xFF;

// One seed per run, fresh unless GPUPRIMS_TEST_SEED pins it (printed at start to reproduce).
inline std::uint64_t seed() {
  static const std::uint64_t value = [] {
    if (const char* env = std::getenv("GPUPRIMS_TEST_SEED")) {
      return static_cast<std::uint64_t>(std::strtoull(env, nullptr, 10));
    }
    return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  }();
  return value;
}

inline std::mt19937_64& rng() {
  static std::mt19937_64 engine(seed());
  return engine;
}

// Uniform in [lo, hi].
inline std::size_t random_size(std::size_t lo, std::size_t hi) {
  return std::uniform_int_distribution<std::size_t>(lo, hi)(rng());
}

// Random bytes in [0, 254]: poison_byte never occurs. A splitmix stream keeps gigabyte fills fast.
inline void fill_random(unsigned char* bytes, std::size_t count) {
  std::uint64_t state = rng()();
  for (std::size_t i = 0; i < count; i += 8) {
    state += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    for (std::size_t k = 0; k < 8 && i + k < count; ++k) {
      const auto byte = static_cast<unsigned char>(z >> (8 * k));
      bytes[i + k] = byte == poison_byte ? static_cast<unsigned char>(byte - 1) : byte;
    }
  }
}

// Index of the first differing byte, or count when equal.
inline std::size_t first_mismatch(const unsigned char* a, const unsigned char* b,
                                  std::size_t count) {
  if (std::memcmp(a, b, count) == 0) {
    return count;
  }
  std::size_t i = 0;
  while (a[i] == b[i]) {
    ++i;
  }
  return i;
}

// Index of the first byte that is not poison_byte, or count when all are.
inline std::size_t first_unpoisoned(const unsigned char* bytes, std::size_t count) {
  std::size_t i = 0;
  while (i < count && bytes[i] == poison_byte) {
    ++i;
  }
  return i;
}

// Element types by size and alignment: blob<4, 4> behaves like float, blob<4, 1> can start at any
// byte, so it reaches every offset.
template <std::size_t Size, std::size_t Align>
struct alignas(Align) blob {
  unsigned char bytes[Size];
};

#define GPUPRIMS_CHECK_CUDA(expr)                                     \
  do {                                                                \
    const cudaError_t gpuprims_test_status_ = (expr);                 \
    INFO(#expr << ": " << cudaGetErrorString(gpuprims_test_status_)); \
    REQUIRE(gpuprims_test_status_ == cudaSuccess);                    \
  } while (0)

// After a launch: no launch error, and none while it ran.
#define GPUPRIMS_CHECK_LAUNCH()                   \
  do {                                            \
    GPUPRIMS_CHECK_CUDA(cudaGetLastError());      \
    GPUPRIMS_CHECK_CUDA(cudaDeviceSynchronize()); \
  } while (0)

// Owning device allocation of raw bytes.
class device_buffer {
 public:
  explicit device_buffer(std::size_t bytes) : bytes_(bytes) {
    GPUPRIMS_CHECK_CUDA(cudaMalloc(&data_, bytes == 0 ? 1 : bytes));
  }
  ~device_buffer() { cudaFree(data_); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  unsigned char* data() const { return static_cast<unsigned char*>(data_); }
  std::size_t size() const { return bytes_; }

  void upload(const std::vector<unsigned char>& host) const {
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(data_, host.data(), host.size(), cudaMemcpyHostToDevice));
  }
  // Waits for the fill: cudaMemset runs on the legacy default stream, which does not order against
  // streams created cudaStreamNonBlocking, so a launch on one of those could start before the
  // poison lands and have its output overwritten (seen on an H100 under load: a scan on a
  // non-blocking stream read back as poison from index 0).
  void poison() const {
    GPUPRIMS_CHECK_CUDA(cudaMemset(data_, poison_byte, bytes_));
    GPUPRIMS_CHECK_CUDA(cudaDeviceSynchronize());
  }
  std::vector<unsigned char> download() const {
    std::vector<unsigned char> host(bytes_);
    GPUPRIMS_CHECK_CUDA(cudaMemcpy(host.data(), data_, bytes_, cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// One result of a reduction checked on the host against the fold of `count` items item(0 .. count
// - 1) starting from init: exact (integers, affine maps, or integer-valued floats far below 2^24),
// or for double within (count + 1) epsilon times the sum of magnitudes.
template <class T, class Op, class ItemAt>
bool matches_reference(const T& got, T init, Op op, std::size_t count, ItemAt item) {
  if constexpr (std::is_same_v<T, double>) {
    double sum = init, magnitude = std::fabs(init);
    for (std::size_t k = 0; k < count; ++k) {
      sum += static_cast<double>(item(k));
      magnitude += std::fabs(static_cast<double>(item(k)));
    }
    const double bound = (count + 1) * std::numeric_limits<double>::epsilon() * magnitude;
    return std::fabs(got - sum) <= bound;
  } else {
    T ref = init;
    for (std::size_t k = 0; k < count; ++k) {
      ref = op(ref, static_cast<T>(item(k)));
    }
    return std::memcmp(&ref, &got, sizeof(T)) == 0;
  }
}

// The same, and the same bits on a second call (`again`).
template <class T, class Op, class ItemAt>
bool reduction_matches(const T& got, const T& again, T init, Op op, std::size_t count,
                       ItemAt item) {
  return std::memcmp(&got, &again, sizeof(T)) == 0 && matches_reference(got, init, op, count, item);
}

}  // namespace gpuprims::test

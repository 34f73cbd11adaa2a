// The host launchers' argument checks: they run before any CUDA call, so they hold on any machine.
#include <gpuprims/device/copy.cuh>

#include "support/catch.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>

namespace {

// Addresses that are never dereferenced: validation must decide before touching the device.
template <class T>
T* fake_pointer(std::uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

}  // namespace

TEST_CASE("copy with n == 0 succeeds without looking at the pointers", "[copy][args]") {
  CHECK(gpuprims::copy(static_cast<const float*>(nullptr), static_cast<float*>(nullptr), 0) ==
        cudaSuccess);
  CHECK(gpuprims::copy_vectorized<4>(static_cast<const float*>(nullptr),
                                     static_cast<float*>(nullptr), 0) == cudaSuccess);
}

TEST_CASE("copy rejects a null pointer when there is work", "[copy][args]") {
  auto* p = fake_pointer<float>(0x10000);
  CHECK(gpuprims::copy(static_cast<const float*>(nullptr), p, 1) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(p, static_cast<float*>(nullptr), 1) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy_vectorized<1>(static_cast<const float*>(nullptr), p, 7) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::copy_vectorized<2>(p, static_cast<float*>(nullptr), 7) == cudaErrorInvalidValue);
}

TEST_CASE("copy rejects overlapping ranges, touching or not", "[copy][args]") {
  const std::uintptr_t base = 0x100000;
  auto* in = fake_pointer<double>(base);
  CHECK(gpuprims::copy(in, fake_pointer<double>(base), 1) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(in, fake_pointer<double>(base + 8 * 9), 10) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(fake_pointer<const double>(base + 8 * 9), fake_pointer<double>(base), 10) ==
        cudaErrorInvalidValue);
  // Overlap by a single byte, through an element type of alignment 1.
  struct alignas(1) three {
    unsigned char b[3];
  };
  CHECK(gpuprims::copy(fake_pointer<const three>(base), fake_pointer<three>(base + 29), 10) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::copy_vectorized<2>(in, fake_pointer<double>(base + 8), 2) ==
        cudaErrorInvalidValue);
}

TEST_CASE("copy rejects a size whose byte count overflows", "[copy][args]") {
  const std::size_t too_many = std::numeric_limits<std::size_t>::max() / 4 + 1;
  CHECK(gpuprims::copy(fake_pointer<const float>(0x1000), fake_pointer<float>(0x100000),
                       too_many) == cudaErrorInvalidValue);
}

// The transpose launcher's argument checks: they run before any CUDA call, so they hold anywhere.
#include <gpuprims/device/transpose.cuh>

#include "support/catch.hpp"

#include <cstdint>

namespace {

float* fake(std::uintptr_t address) { return reinterpret_cast<float*>(address); }

}  // namespace

TEST_CASE("transpose of an empty matrix or batch succeeds without looking at the pointers",
          "[transpose][args]") {
  CHECK(gpuprims::transpose(static_cast<const float*>(nullptr), static_cast<float*>(nullptr), 0,
                            5) == cudaSuccess);
  CHECK(gpuprims::transpose(static_cast<const float*>(nullptr), static_cast<float*>(nullptr), 5,
                            0) == cudaSuccess);
  CHECK(gpuprims::transpose(static_cast<const float*>(nullptr), static_cast<float*>(nullptr), 5, 5,
                            5, 5, 0, 25, 25) == cudaSuccess);
}

TEST_CASE("transpose rejects null pointers, short pitches and short strides", "[transpose][args]") {
  const float* in = fake(0x100000);
  float* out = fake(0x900000);
  CHECK(gpuprims::transpose(static_cast<const float*>(nullptr), out, 4, 4) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::transpose(in, static_cast<float*>(nullptr), 4, 4) == cudaErrorInvalidValue);
  CHECK(gpuprims::transpose(in, out, 4, 8, 7, 4) == cudaErrorInvalidValue);  // in pitch < cols
  CHECK(gpuprims::transpose(in, out, 4, 8, 8, 3) == cudaErrorInvalidValue);  // out pitch < rows
  CHECK(gpuprims::transpose(in, out, 4, 8, 8, 4, 2, 31, 32) ==
        cudaErrorInvalidValue);  // in stride < matrix
  CHECK(gpuprims::transpose(in, out, 4, 8, 8, 4, 2, 32, 31) ==
        cudaErrorInvalidValue);  // out stride < matrix
}

TEST_CASE("transpose is out of place: in place or overlapping spans are rejected",
          "[transpose][args]") {
  float* a = fake(0x100000);
  CHECK(gpuprims::transpose(a, a, 4, 4) == cudaErrorInvalidValue);
  CHECK(gpuprims::transpose(a, a + 15, 4, 4) ==
        cudaErrorInvalidValue);  // last in element, first out element
  CHECK(gpuprims::transpose(a + 15, a, 4, 4) == cudaErrorInvalidValue);
  CHECK(gpuprims::transpose(a, a + 3 * 64 + 10, 4, 10, 64, 4, 2, 256, 40) ==
        cudaErrorInvalidValue);  // inside a pitch gap
}

TEST_CASE("transpose rejects shapes whose span overflows", "[transpose][args]") {
  const std::size_t huge = std::size_t{1} << 62;
  CHECK(gpuprims::transpose(fake(0x100000), fake(0x900000), huge, 8, 8, huge) ==
        cudaErrorInvalidValue);
}

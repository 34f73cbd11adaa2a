// gpuprims::reduce's null-pointer checks: they run before any CUDA call, so they hold anywhere.
#include <gpuprims/reduce.cuh>

#include "support/catch.hpp"

#include <cstdint>

TEST_CASE("reduce rejects null pointers before touching the device", "[reduce][args]") {
  const auto* in = reinterpret_cast<const float*>(std::uintptr_t{0x100000});
  auto* out = reinterpret_cast<float*>(std::uintptr_t{0x900000});
  CHECK(gpuprims::reduce(static_cast<const float*>(nullptr), 4, out, 0.0f, gpuprims::plus<float>{}) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::reduce(in, 4, static_cast<float*>(nullptr), 0.0f, gpuprims::plus<float>{}) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::reduce(in, 4, static_cast<float*>(nullptr), 0.0f, gpuprims::plus<float>{}, nullptr, 0) ==
        cudaErrorInvalidValue);
}

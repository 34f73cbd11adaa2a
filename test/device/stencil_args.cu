// The stencil launcher's argument checks: they run before any CUDA call, so they hold anywhere.
#include <gpuprims/device/stencil.cuh>
#include <gpuprims/ladder/stencil.cuh>

#include "support/catch.hpp"

#include <cstdint>

namespace {

float* fake(std::uintptr_t address) { return reinterpret_cast<float*>(address); }

const gpuprims::stencil_weights<float, 2> w{{1, 2, 3, 4, 5}};

}  // namespace

TEST_CASE("apply_stencil1d of nothing succeeds without looking at the pointers",
          "[stencil][args]") {
  CHECK(gpuprims::apply_stencil1d<2>(static_cast<const float*>(nullptr),
                                     static_cast<float*>(nullptr), 0, w) == cudaSuccess);
  // rows, cols, in_pitch, out_pitch: no rows.
  CHECK(gpuprims::apply_stencil1d<2>(static_cast<const float*>(nullptr),
                                     static_cast<float*>(nullptr), 0, 5, 5, 5, w) == cudaSuccess);
}

TEST_CASE("apply_stencil1d rejects null pointers, short pitches and unknown boundary modes",
          "[stencil][args]") {
  const float* in = fake(0x100000);
  float* out = fake(0x900000);
  CHECK(gpuprims::apply_stencil1d<2>(static_cast<const float*>(nullptr), out, 4, w) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d<2>(in, static_cast<float*>(nullptr), 4, w) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d<2>(in, out, 2, 8, 7, 8, w) ==
        cudaErrorInvalidValue);  // in pitch < cols
  CHECK(gpuprims::apply_stencil1d<2>(in, out, 2, 8, 8, 7, w) ==
        cudaErrorInvalidValue);  // out pitch < cols
  gpuprims::boundary odd{};
  odd.mode = static_cast<gpuprims::boundary_mode>(42);
  CHECK(gpuprims::apply_stencil1d<2>(in, out, 8, w, odd) == cudaErrorInvalidValue);
}

TEST_CASE("apply_stencil1d is out of place: in place or overlapping spans are rejected",
          "[stencil][args]") {
  float* a = fake(0x100000);
  CHECK(gpuprims::apply_stencil1d<2>(a, a, 16, w) == cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d<2>(a, a + 15, 16, w) ==
        cudaErrorInvalidValue);  // last in element, first out element
  CHECK(gpuprims::apply_stencil1d<2>(a + 15, a, 16, w) == cudaErrorInvalidValue);
  CHECK(gpuprims::apply_stencil1d<2>(a, a + 64 + 20, 4, 10, 64, 64, w) ==
        cudaErrorInvalidValue);  // in a pitch gap
  CHECK(gpuprims::ladder::apply_stencil1d<2, gpuprims::ladder::stencil_rung::naive>(
            a, a + 3, 16, w) == cudaErrorInvalidValue);
}

TEST_CASE("apply_stencil1d rejects spans that overflow", "[stencil][args]") {
  const std::size_t huge = std::size_t{1} << 62;
  CHECK(gpuprims::apply_stencil1d<2>(fake(0x100000), fake(0x900000), huge, 8, huge, 8, w) ==
        cudaErrorInvalidValue);
}

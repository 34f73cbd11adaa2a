// Argument errors on a real device: rejected calls launch nothing, so a poisoned buffer survives
// them and no CUDA error is left behind.
#include <gpuprims/copy.cuh>

#include "support/test_support.cuh"

#include <cstddef>
#include <vector>

using namespace gpuprims::test;

namespace {

// Each launcher call sits alone in a function of its own, kept out of line: gcc 13 (Ubuntu 24.04)
// took minutes to compile a function holding several of these calls next to Catch2 v3 assertions.
__noinline__ cudaError_t overlap_out_after_in(float* d) { return gpuprims::copy(d, d + 1, 100); }
__noinline__ cudaError_t overlap_out_before_in(float* d) { return gpuprims::copy(d + 1, d, 100); }
__noinline__ cudaError_t overlap_one_element(float* d) { return gpuprims::copy_vectorized<4>(d, d + 99, 100); }
__noinline__ cudaError_t in_place(float* d) { return gpuprims::copy(d, d, 1); }
__noinline__ cudaError_t null_input(float* d) { return gpuprims::copy(static_cast<const float*>(nullptr), d, 1); }
__noinline__ cudaError_t null_output(float* d) {
  return gpuprims::copy_vectorized<2>(d, static_cast<float*>(nullptr), 1);
}
__noinline__ cudaError_t empty_copy(float* d) { return gpuprims::copy(d, d + 512, 0); }
__noinline__ cudaError_t empty_in_place(float* d) { return gpuprims::copy_vectorized<4>(d, d, 0); }

}  // namespace

TEST_CASE("copy rejects bad arguments without launching", "[copy][gpu]") {
  device_buffer buffer(4096);
  buffer.poison();
  auto* data = reinterpret_cast<float*>(buffer.data());
  using call = cudaError_t (*)(float*);
  for (call rejected : {overlap_out_after_in, overlap_out_before_in, overlap_one_element, in_place, null_input,
                        null_output}) {
    CHECK(rejected(data) == cudaErrorInvalidValue);
  }
  for (call empty : {empty_copy, empty_in_place}) {
    CHECK(empty(data) == cudaSuccess);
  }
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> after = buffer.download();
  CHECK(first_unpoisoned(after.data(), after.size()) == after.size());
}

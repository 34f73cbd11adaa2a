// Argument errors on a real device: rejected calls launch nothing, so a poisoned buffer survives
// them and no CUDA error is left behind.
#include <gpuprims/copy.cuh>

#include "support/test_support.cuh"

#include <cstddef>
#include <vector>

using namespace gpuprims::test;

namespace {

// The launcher calls live apart from the Catch2 assertions, and are not inlined into them: gcc 13
// (Ubuntu 24.04) takes minutes to compile a function that mixes Catch2 v3 assertions with several
// inlined launchers.
__noinline__ std::vector<cudaError_t> rejected_calls(float* data) {
  return {
      gpuprims::copy(data, data + 1, 100),                                  // overlap, out after in
      gpuprims::copy(data + 1, data, 100),                                  // overlap, out before in
      gpuprims::copy_vectorized<4>(data, data + 99, 100),                   // one shared element
      gpuprims::copy(data, data, 1),                                        // in place
      gpuprims::copy(static_cast<const float*>(nullptr), data, 1),          // null input
      gpuprims::copy_vectorized<2>(data, static_cast<float*>(nullptr), 1),  // null output
  };
}

__noinline__ std::vector<cudaError_t> empty_calls(float* data) {
  return {gpuprims::copy(data, data + 512, 0), gpuprims::copy_vectorized<4>(data, data, 0)};
}

}  // namespace

TEST_CASE("copy rejects bad arguments without launching", "[copy][gpu]") {
  device_buffer buffer(4096);
  buffer.poison();
  auto* data = reinterpret_cast<float*>(buffer.data());
  const std::vector<cudaError_t> rejected = rejected_calls(data);
  const std::vector<cudaError_t> empty = empty_calls(data);
  for (std::size_t i = 0; i < rejected.size(); ++i) {
    INFO("rejected call " << i);
    CHECK(rejected[i] == cudaErrorInvalidValue);
  }
  for (std::size_t i = 0; i < empty.size(); ++i) {
    INFO("empty call " << i);
    CHECK(empty[i] == cudaSuccess);
  }
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> after = buffer.download();
  CHECK(first_unpoisoned(after.data(), after.size()) == after.size());
}

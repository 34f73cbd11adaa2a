// Argument errors on a real device: rejected calls launch nothing, so a poisoned buffer survives
// them and no CUDA error is left behind.
#include <gpuprims/copy.cuh>

#include "support/test_support.cuh"

#include <vector>

using namespace gpuprims::test;

TEST_CASE("copy rejects bad arguments without launching", "[copy][gpu]") {
  device_buffer buffer(4096);
  buffer.poison();
  auto* data = reinterpret_cast<float*>(buffer.data());
  CHECK(gpuprims::copy(data, data + 1, 100) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(data + 1, data, 100) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy_vectorized<4>(data, data + 99, 100) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(data, data, 1) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(static_cast<const float*>(nullptr), data, 1) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy_vectorized<2>(data, static_cast<float*>(nullptr), 1) == cudaErrorInvalidValue);
  CHECK(gpuprims::copy(data, data + 512, 0) == cudaSuccess);
  CHECK(gpuprims::copy_vectorized<4>(data, data, 0) == cudaSuccess);
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> after = buffer.download();
  CHECK(first_unpoisoned(after.data(), after.size()) == after.size());
}

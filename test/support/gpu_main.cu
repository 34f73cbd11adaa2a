// main() of the GPU test executables: with no usable CUDA device, exit with ctest's skip code
// (SKIP_RETURN_CODE 77) so the run shows these tests as skipped, never as passed.
#define GPUPRIMS_CATCH_RUNNER
#include "catch.hpp"
#include "test_support.cuh"

#include <cuda_runtime.h>

#include <cstdio>

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device (%s)\n", cudaGetErrorString(status));
    return gpuprims::test::skip_exit_code;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
    std::printf("device: %s (sm_%d%d), seed %llu\n", prop.name, prop.major, prop.minor,
                static_cast<unsigned long long>(gpuprims::test::seed()));
  }
  return Catch::Session().run(argc, argv);
}

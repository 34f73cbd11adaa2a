// main() of the GPU test executables: with no usable CUDA device, exit with ctest's skip code
// (SKIP_RETURN_CODE 77) so the run shows these tests as skipped, never as passed; on a GPU this
// build has no code for, fail with one line that says which architectures it needs.
#define GPUPRIMS_CATCH_RUNNER
#include "catch.hpp"
#include "device_check.cuh"
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
  if (gpuprims::test::check_device_runs_this_build(argv[0]) != 0) {
    return 1;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
    std::printf("device: %s (sm_%d%d), built for %s, seed %llu\n", prop.name, prop.major,
                prop.minor, gpuprims::test::built_architectures(),
                static_cast<unsigned long long>(gpuprims::test::seed()));
  }
  return Catch::Session().run(argc, argv);
}

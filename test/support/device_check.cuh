// Whether this program has code the current GPU can run, said in one line when it has not: tests
// and examples built for one architecture and run on another fail with a hint, not with "no kernel
// image" from every call.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>

namespace gpuprims::test {

template <int = 0>
__global__ void image_probe_kernel() {}

// The architectures this file was compiled for (nvcc's __CUDA_ARCH_LIST__, e.g. "800,900").
inline const char* built_architectures() {
#if defined(__CUDA_ARCH_LIST__)
#define GPUPRIMS_TEST_STRING_(...) #__VA_ARGS__
#define GPUPRIMS_TEST_STRING(...) GPUPRIMS_TEST_STRING_(__VA_ARGS__)
  return GPUPRIMS_TEST_STRING(__CUDA_ARCH_LIST__);
#undef GPUPRIMS_TEST_STRING
#undef GPUPRIMS_TEST_STRING_
#else
  return "unknown";
#endif
}

// 0 when device 0 can run this program's kernels; otherwise prints why in one line and returns 1.
inline int check_device_runs_this_build(const char* program) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    return 0;  // reported by the first CUDA call that needs the device
  }
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, image_probe_kernel<>);
  if (status == cudaSuccess) {
    return 0;
  }
  std::printf(
      "%s: the GPU is %s (sm_%d%d) but this build has code for compute capabilities %s only (%s): "
      "rebuild with -DCMAKE_CUDA_ARCHITECTURES=%d%d (or native)\n",
      program, prop.name, prop.major, prop.minor, built_architectures(), cudaGetErrorString(status),
      prop.major, prop.minor);
  return 1;
}

}  // namespace gpuprims::test

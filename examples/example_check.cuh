// The examples' error check: a failing CUDA call prints where and why and ends the program. A GPU
// the example has no code for gets one line saying which architecture to build for.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

inline void example_check(cudaError_t status, const char* expr, const char* file, int line) {
  if (status == cudaSuccess) {
    return;
  }
  std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, expr, cudaGetErrorString(status));
  cudaDeviceProp prop{};
  if (status == cudaErrorNoKernelImageForDevice &&
      cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
    std::fprintf(
        stderr,
        "this GPU is %s (sm_%d%d): rebuild with -DCMAKE_CUDA_ARCHITECTURES=%d%d (or native)\n",
        prop.name, prop.major, prop.minor, prop.major, prop.minor);
  }
  std::exit(1);
}

#define CHECK(expr) example_check((expr), #expr, __FILE__, __LINE__)

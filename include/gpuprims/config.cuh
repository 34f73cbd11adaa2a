// Library-wide configuration: the version, the compiler checks, and the error-propagation macro of
// the host launchers.
#pragma once

#if !defined(__CUDACC__)
#error "gpuprims headers hold CUDA kernels: compile the including file as CUDA (.cu, nvcc)"
#endif

#if __cplusplus < 201703L
#error "gpuprims needs C++17 (-std=c++17)"
#endif

#define GPUPRIMS_VERSION_MAJOR 0
#define GPUPRIMS_VERSION_MINOR 2
#define GPUPRIMS_VERSION_PATCH 0

// Early return for host launchers: propagate the first CUDA error unchanged.
#define GPUPRIMS_RETURN_IF_ERROR(expr)           \
  do {                                           \
    const cudaError_t gpuprims_status_ = (expr); \
    if (gpuprims_status_ != cudaSuccess) {       \
      return gpuprims_status_;                   \
    }                                            \
  } while (0)

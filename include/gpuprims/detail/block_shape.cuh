// The block shape a device template needs, checked in every build: a block of another shape would
// index past its shared storage or skip outputs, so it stops the kernel instead
// (cudaErrorIllegalInstruction at the next synchronisation).
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>

namespace gpuprims::detail {

__device__ __forceinline__ void require_block_shape(unsigned int x, unsigned int y,
                                                    unsigned int z) {
  if (blockDim.x != x || blockDim.y != y || blockDim.z != z) {
    __trap();
  }
}

__device__ __forceinline__ void require_block_threads(unsigned int threads) {
  if (blockDim.x * blockDim.y * blockDim.z != threads) {
    __trap();
  }
}

}  // namespace gpuprims::detail

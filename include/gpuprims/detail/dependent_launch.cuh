// Programmatic dependent launch (Hopper and later): a gpuprims kernel may be scheduled while the
// kernel before it in the stream is being retired, and waits for that kernel before its first
// access to global memory, so stream order holds for every grid that runs before it.
#pragma once

#include <gpuprims/detail/config.cuh>

#include <cuda_runtime.h>

#include <atomic>

namespace gpuprims::detail {

// The first statement of every gpuprims kernel: blocks until every grid before it in the stream
// has completed and its memory is visible (griddepcontrol.wait). A no-op when the launch did not
// opt in (or before sm_90). The kernels do not signal their own dependents early
// (griddepcontrol.launch_dependents): measured on an H100, it slowed a one-float-per-thread copy of
// 2^28 floats (a million 256-thread blocks) from 887 to 1268 us, and the 2^24-float reduce gained
// nothing from it; without it the next grid may still start once this one's blocks have exited,
// before its memory flush.
__device__ __forceinline__ void wait_for_prior_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Whether Kernel, as loaded on `device`, was built for sm_90 or later and so really waits in
// wait_for_prior_grids(). A kernel the driver compiled from older PTX (a binary built without
// sm_90 code, run on Hopper) has no wait and must start only after its predecessors. Cached per
// device: cudaFuncGetAttributes costs ~0.7 us, a launch's whole host budget on small inputs.
template <auto Kernel>
bool waits_for_prior_grids(int device) {
  constexpr int max_cached_devices = 64;
  static std::atomic<signed char> cache[max_cached_devices] = {};  // 1: waits, -1: does not, 0: unread
  if (device >= 0 && device < max_cached_devices) {
    if (const signed char known = cache[device].load(std::memory_order_relaxed); known != 0) {
      return known > 0;
    }
  }
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, Kernel) != cudaSuccess) {
    return false;  // the launch itself reports why
  }
  const bool waits = attributes.ptxVersion >= 90;
  if (device >= 0 && device < max_cached_devices) {
    cache[device].store(waits ? 1 : -1, std::memory_order_relaxed);
  }
  return waits;
}

// Launches Kernel on `stream` and returns the launch's status. Where the kernel waits for prior
// grids, the launch opts into programmatic stream serialization: its blocks may be scheduled
// once the previous kernel's blocks have exited, before that kernel is flushed and retired, which
// hides part of a launch's latency between back-to-back calls (docs/design.md). Define
// GPUPRIMS_NO_DEPENDENT_LAUNCH to launch plainly.
template <auto Kernel, class... Args>
cudaError_t launch(dim3 grid, dim3 block, cudaStream_t stream, const Args&... args) {
  cudaLaunchAttribute early{};
  early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  early.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  config.attrs = &early;
  config.numAttrs = 0;
#if !defined(GPUPRIMS_NO_DEPENDENT_LAUNCH)
  int device = 0;
  GPUPRIMS_RETURN_IF_ERROR(cudaGetDevice(&device));
  config.numAttrs = waits_for_prior_grids<Kernel>(device) ? 1 : 0;
#endif
  return cudaLaunchKernelEx(&config, Kernel, args...);
}

}  // namespace gpuprims::detail

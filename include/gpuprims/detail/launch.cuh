// How every library kernel is launched: the current device's facts (cached), the grid arithmetic,
// and the launch itself with programmatic dependent launch where the policy and the code allow it.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/features.cuh>
#include <gpuprims/detail/arch/grid_dependency.cuh>

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gpuprims::detail {

// ---- device side -----------------------------------------------------------------------------

// The first statement of every library kernel: waits until every grid before it in the stream has
// completed and its memory is visible, where the code has programmatic dependent launch (sm_90 and
// later) and the launch opted in. Older architectures cannot be launched that way, so stream order
// already holds there and there is nothing to wait for.
template <int Arch = arch::target>
__device__ __forceinline__ void wait_for_prior_grids() {
  if constexpr (arch::supports(arch::feature::grid_dependency, Arch)) {
    arch::griddepcontrol_wait<Arch>();
  }
}

// Lets the next kernel in the stream, where it was launched dependent, be scheduled before this one
// has finished; it still waits (wait_for_prior_grids) for this one's memory. Nothing on
// architectures without programmatic dependent launch.
template <int Arch = arch::target>
__device__ __forceinline__ void allow_next_grid() {
  if constexpr (arch::supports(arch::feature::grid_dependency, Arch)) {
    arch::griddepcontrol_launch_dependents<Arch>();
  }
}

// An empty kernel whose attributes tell the host which architecture the library's device code in
// this program was compiled for (its PTX version: 80 for a compute_80 build JIT-compiled on an
// H100). Policies are chosen by that, the same number the kernels choose theirs by.
template <int = 0>
__global__ void arch_probe_kernel() {}

// ---- host side -------------------------------------------------------------------------------

__host__ __device__ inline constexpr std::size_t ceil_div(std::size_t work, std::size_t per_block) {
  return (work + per_block - 1) / per_block;
}

// Blocks along x: at least 1, at most gridDim.x's 2^31 - 1 (the kernels loop over the rest).
inline unsigned int grid_x(std::size_t blocks) {
  constexpr std::size_t max = 0x7fffffff;
  return static_cast<unsigned int>(blocks == 0 ? 1 : (blocks < max ? blocks : max));
}

// Blocks along y or z: at least 1, at most 65535 (the kernels loop over the rest).
inline unsigned int grid_yz(std::size_t blocks) {
  constexpr std::size_t max = 65535;
  return static_cast<unsigned int>(blocks == 0 ? 1 : (blocks < max ? blocks : max));
}

struct device_facts {
  int multiprocessors = 0;
  int max_threads_per_multiprocessor = 0;
  int target_arch = 0;  ///< what the library's kernels run as on this device (arch_probe_kernel)
  int device = -1;      ///< the device they describe (the current one when read)

  std::size_t resident_threads() const {
    return static_cast<std::size_t>(multiprocessors) *
           static_cast<std::size_t>(max_threads_per_multiprocessor);
  }
};

// The current device's facts, read once per device and cached: a launch's host overhead is what
// small calls are bound by (cudaFuncGetAttributes alone costs ~0.7 us). No synchronisation, no
// allocation. A device without code for this program fails here with the runtime's error
// (cudaErrorNoKernelImageForDevice), before anything is launched.
inline cudaError_t current_device_facts(device_facts& facts) {
  constexpr int cached_devices = 64;
  // 16 bits each: multiprocessors, threads per multiprocessor, target arch; bit 63: valid.
  static std::atomic<std::uint64_t> cache[cached_devices] = {};
  constexpr std::uint64_t valid = std::uint64_t{1} << 63;
  int device = 0;
  GPUPRIMS_RETURN_IF_ERROR(cudaGetDevice(&device));
  facts.device = device;
  const bool cacheable = device >= 0 && device < cached_devices;
  if (cacheable) {
    const std::uint64_t packed = cache[device].load(std::memory_order_relaxed);
    if (packed & valid) {
      facts.multiprocessors = static_cast<int>(packed & 0xffff);
      facts.max_threads_per_multiprocessor = static_cast<int>(packed >> 16 & 0xffff);
      facts.target_arch = static_cast<int>(packed >> 32 & 0xffff);
      return cudaSuccess;
    }
  }
  GPUPRIMS_RETURN_IF_ERROR(
      cudaDeviceGetAttribute(&facts.multiprocessors, cudaDevAttrMultiProcessorCount, device));
  GPUPRIMS_RETURN_IF_ERROR(cudaDeviceGetAttribute(&facts.max_threads_per_multiprocessor,
                                                  cudaDevAttrMaxThreadsPerMultiProcessor, device));
  cudaFuncAttributes probe{};
  GPUPRIMS_RETURN_IF_ERROR(cudaFuncGetAttributes(&probe, arch_probe_kernel<>));
  facts.target_arch = probe.ptxVersion;
  if (cacheable) {
    cache[device].store(
        valid | static_cast<std::uint64_t>(facts.target_arch & 0xffff) << 32 |
            static_cast<std::uint64_t>(facts.max_threads_per_multiprocessor & 0xffff) << 16 |
            static_cast<std::uint64_t>(facts.multiprocessors & 0xffff),
        std::memory_order_relaxed);
  }
  return cudaSuccess;
}

// Launches Kernel on `stream` with `shared_bytes` of dynamic shared memory a block (raising the
// kernel's limit first where that is past the 48 KiB every kernel may take without asking) and
// returns the launch's status. With `dependent` (the policy's
// dependent_launch, and code built for an architecture with griddepcontrol) the launch opts into
// programmatic stream serialization: its blocks may be scheduled once the previous kernel's blocks
// have exited, before that kernel is flushed and retired, which hides part of a launch's latency
// between back-to-back calls (docs/design.md). Every library kernel starts with
// wait_for_prior_grids(), so stream order holds for any predecessor.
template <auto Kernel, class... Args>
cudaError_t launch_shared(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                          bool dependent, const Args&... args) {
  constexpr std::size_t default_limit = 48 * 1024;
  if (shared_bytes > default_limit) {
    GPUPRIMS_RETURN_IF_ERROR(cudaFuncSetAttribute(
        Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
  }
  cudaLaunchAttribute early{};
  early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  early.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = &early;
  config.numAttrs = dependent ? 1 : 0;
  return cudaLaunchKernelEx(&config, Kernel, args...);
}

// launch_shared without dynamic shared memory.
template <auto Kernel, class... Args>
cudaError_t launch(dim3 grid, dim3 block, cudaStream_t stream, bool dependent,
                   const Args&... args) {
  return launch_shared<Kernel>(grid, block, 0, stream, dependent, args...);
}

// Whether a launch of code built for `target_arch` may opt into programmatic dependent launch.
inline bool dependent_launch(bool policy_allows, const device_facts& facts) {
  return policy_allows && arch::supports(arch::feature::grid_dependency, facts.target_arch);
}

}  // namespace gpuprims::detail

// The one place that knows architectures: which one this compilation pass targets, which features
// each architecture has, and each architecture's per-SM limits. Policies (tuning/) and the wrappers
// of architecture-specific instructions (detail/arch/*.cuh) ask here; algorithms ask their policy.
#pragma once

#include <gpuprims/config.cuh>

// The architecture the current compilation pass generates code for, as compute capability x 10
// (75, 80, ..., 121); 0 in the host pass, where no device code is generated.
#if defined(__CUDA_ARCH__)
#define GPUPRIMS_TARGET_ARCH (__CUDA_ARCH__ / 10)
#else
#define GPUPRIMS_TARGET_ARCH 0
#endif

namespace gpuprims::detail::arch {

inline constexpr int target = GPUPRIMS_TARGET_ARCH;

// Instructions that only some architectures have.
enum class feature {
  async_copy,  ///< cp.async: 4- to 16-byte copies from global to shared memory in the background,
               ///< sm_80
  bulk_copy,   ///< cp.async.bulk between shared and global memory (the copy engine, TMA), sm_90
  grid_dependency,  ///< griddepcontrol: programmatic dependent launch, sm_90
};

/// Whether code built for `arch` (compute capability x 10) may use `f`.
__host__ __device__ constexpr bool supports(feature f, int arch) {
  switch (f) {
    case feature::async_copy:
      return arch >= 80;
    case feature::bulk_copy:
      return arch >= 90;
    case feature::grid_dependency:
      return arch >= 90;
  }
  return false;
}

inline constexpr bool has_async_copy = supports(feature::async_copy, target);
inline constexpr bool has_bulk_copy = supports(feature::bulk_copy, target);
inline constexpr bool has_grid_dependency = supports(feature::grid_dependency, target);

// Per-SM limits: resident threads and blocks, and shared memory (bytes). Threads and blocks are
// what ptxas of nvcc 13.0 accepts in __launch_bounds__ without `.minnctapersm will be ignored`
// (checked for every architecture `nvcc --list-gpu-arch` names). Shared memory is the CUDA C++
// Programming Guide's figure; sm_88 and sm_110, which the guide's table did not list, get 100 KB,
// the smallest of the listed architectures with 1536 threads per SM.
struct limits {
  int max_threads_per_sm;
  int max_blocks_per_sm;
  int shared_bytes_per_sm;
};

__host__ __device__ constexpr limits limits_of(int arch) {
  constexpr int kb = 1024;
  switch (arch) {
    case 75:
      return {1024, 16, 64 * kb};
    case 80:
      return {2048, 32, 164 * kb};
    case 86:
    case 88:
      return {1536, 16, 100 * kb};
    case 87:
      return {1536, 16, 164 * kb};
    case 89:
    case 110:
    case 120:
    case 121:
      return {1536, 24, 100 * kb};
    case 90:
    case 100:
    case 103:
      return {2048, 32, 228 * kb};
    default:  // the host pass, and architectures newer than this table: the smallest of each limit
      return {1024, 16, 64 * kb};
  }
}

/// The most blocks of `threads` threads that `arch` keeps resident per SM, capped at `wanted`
/// (0: no wish, 0 returned, the compiler chooses). __launch_bounds__ minimum-block counts pass
/// through this, so none asks for more threads per SM than the target has.
__host__ __device__ constexpr int resident_blocks(int wanted, int threads, int arch) {
  const limits l = limits_of(arch);
  int fit = l.max_threads_per_sm / threads;
  fit = fit < l.max_blocks_per_sm ? fit : l.max_blocks_per_sm;
  return wanted < fit ? wanted : fit;
}

}  // namespace gpuprims::detail::arch

// Programmatic dependent launch, device side (griddepcontrol, sm_90 and later).
#pragma once

#include <gpuprims/detail/arch/features.cuh>

namespace gpuprims::detail::arch {

// Blocks until every grid this one depends on (those before it in the stream, when it was launched
// with programmatic stream serialization) has completed and its memory is visible. Code built for
// an architecture without it does not compile: callers ask `has_grid_dependency` first.
template <int Arch = target>
__device__ __forceinline__ void griddepcontrol_wait() {
  static_assert(Arch == 0 || supports(feature::grid_dependency, Arch),
                "griddepcontrol needs sm_90 or later: ask arch::has_grid_dependency first");
#if defined(__CUDA_ARCH__)
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the grids launched after this one with programmatic stream serialization be scheduled
// before this one has finished (they still wait in griddepcontrol_wait for its memory). Costly in
// grids of many blocks (notes/design.md): for small grids only.
template <int Arch = target>
__device__ __forceinline__ void griddepcontrol_launch_dependents() {
  static_assert(Arch == 0 || supports(feature::grid_dependency, Arch),
                "griddepcontrol needs sm_90 or later: ask arch::has_grid_dependency first");
#if defined(__CUDA_ARCH__)
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

}  // namespace gpuprims::detail::arch

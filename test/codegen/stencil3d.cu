// Codegen checks for the 3D stencil (see check_sass.py): register streaming's 16-byte accesses
// and shuffles, the shared ring's planes in shared memory, fused multiply-adds, and no local
// memory at any radius.
#include <gpuprims/device/stencil3d.cuh>

template <int Rad, gpuprims::stencil_shape Shape, class T>
void launchers(const T* in, T* out) {
  const gpuprims::stencil3d_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil3d<Rad, Shape>(in, out, 1, 1, 1, 1, 1, 1, 1, w);
}
// Every radius, shape and type the launcher takes: none spills (check_sass.py's standing rule).
#define GPUPRIMS_LAUNCHERS(R)                                                                \
  template void launchers<R, gpuprims::stencil_shape::star, float>(const float*, float*);    \
  template void launchers<R, gpuprims::stencil_shape::box, float>(const float*, float*);     \
  template void launchers<R, gpuprims::stencil_shape::star, double>(const double*, double*); \
  template void launchers<R, gpuprims::stencil_shape::box, double>(const double*, double*);
GPUPRIMS_LAUNCHERS(1)
GPUPRIMS_LAUNCHERS(2)
GPUPRIMS_LAUNCHERS(3)
GPUPRIMS_LAUNCHERS(4)
#undef GPUPRIMS_LAUNCHERS

// Register streaming: 16-byte loads and stores of the strips' rows, neighbours along x by
// shuffles, no shared memory.
// sass: stencil3d_strip_kernel<gpuprims::stencil3d_tuning, 1, .*float has LDG\.E\.128
// sass: stencil3d_strip_kernel<gpuprims::stencil3d_tuning, 1, .*float has STG\.E\.128
// sass: stencil3d_strip_kernel<gpuprims::stencil3d_tuning, 1, .*float has SHFL\.IDX
// sass: stencil3d_strip_kernel<gpuprims::stencil3d_tuning, 1, .*float has FFMA
// sass: stencil3d_strip_kernel<gpuprims::stencil3d_tuning, 1, .*float lacks LDS
// sass: stencil3d_strip_kernel<gpuprims::stencil3d_tuning, 1, .*1, float, .* has FFMA
// sass: stencil3d_strip_kernel<gpuprims::stencil3d_tuning, 4, .*0, double, .* has DFMA
// sass: stencil3d_strip_kernel<gpuprims::stencil3d_tuning, 4, .*0, double, .* has LDG\.E\.128
// The radius-1 box asks the L2 for its planes ahead of its loads (CCTL.E.PF2: prefetch.global.L2);
// the star does not.
// sass: stencil3d_strip_kernel<gpuprims::stencil3d_tuning, 1, .*1, float, .* has CCTL\.E\.PF2
// sass: stencil3d_strip_kernel<gpuprims::stencil3d_tuning, 1, .*0, float, .* lacks CCTL\.E\.PF2
// The boxes past radius 1 take the shared ring.
// sass: stencil3d_kernel<gpuprims::stencil3d_tuning, 4, .*1, double, .* has DFMA
// sass: stencil3d_kernel<gpuprims::stencil3d_tuning, 2, .*1, float, .* has LDS

// The shared ring (the ladder's rung before streaming), as the library tunes it.
struct ring_tuning {
  __host__ __device__ static constexpr gpuprims::stencil3d_policy select(
      int, std::size_t element_size, int radius, gpuprims::stencil_shape shape) {
    return gpuprims::stencil3d_tuning::shared_ring(element_size, radius, shape);
  }
};

template <int Rad, gpuprims::stencil_shape Shape, class T>
void rings(const T* in, T* out) {
  const gpuprims::stencil3d_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil3d<Rad, Shape, ring_tuning>(in, out, 1, 1, 1, 1, 1, 1, 1, w);
}
template void rings<1, gpuprims::stencil_shape::star, float>(const float*, float*);
template void rings<1, gpuprims::stencil_shape::box, float>(const float*, float*);
template void rings<4, gpuprims::stencil_shape::box, float>(const float*, float*);
template void rings<4, gpuprims::stencil_shape::box, double>(const double*, double*);

// The star's ring of 2 Rad + 2 planes of the tile and halo: radius 1, floats, 32 x 32 tiles:
// 4 x 34 x 34. The box's two planes: radius 1, floats, 32 x 32: 2 x 34 x 34; radius 4, floats,
// 32 x 16: 2 x 24 x 40; radius 4, doubles, 32 x 8: 2 x 16 x 40.
// ptxas: stencil3d_kernel<ring_tuning, 1, .*0, float, .* smem 18496
// ptxas: stencil3d_kernel<ring_tuning, 1, .*1, float, .* smem 9248
// ptxas: stencil3d_kernel<ring_tuning, 4, .*float, .* smem 7680
// ptxas: stencil3d_kernel<ring_tuning, 4, .*double, .* smem 10240
// sass: stencil3d_kernel<ring_tuning, 1, .*float has FFMA
// sass: stencil3d_kernel<ring_tuning, 4, .*double has DFMA

// apply_stencil3d_fused's register streaming, 2 steps of radius 1 (the star and the box of floats,
// the star of doubles): 16-byte copies into the input ring (LDGSTS), its rows read back 16 bytes at
// a time (LDS.128), each step's newest plane written for the rows above and below (STS.128),
// neighbours along x by shuffles, 16-byte stores, and no spill (the ptxas rule above). The planes
// near a non-periodic z boundary take the shared rings (also compiled here).
template <int Rad, gpuprims::stencil_shape Shape, int Steps, class T>
void fused_steps(const T* in, T* out) {
  const gpuprims::stencil3d_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil3d_fused<Rad, Shape, Steps>(in, out, 1, 1, 1, 1, 1, 1, 1, w);
}
template void fused_steps<1, gpuprims::stencil_shape::star, 2, float>(const float*, float*);
template void fused_steps<1, gpuprims::stencil_shape::box, 2, float>(const float*, float*);
template void fused_steps<1, gpuprims::stencil_shape::star, 2, double>(const double*, double*);
// sass: stencil3d_fused_strip_kernel<gpuprims::stencil3d_fused_tuning, 1, .*0, 2, float, .* has LDGSTS\.E\.BYPASS\.128
// sass: stencil3d_fused_strip_kernel<gpuprims::stencil3d_fused_tuning, 1, .*0, 2, float, .* has LDS\.128
// sass: stencil3d_fused_strip_kernel<gpuprims::stencil3d_fused_tuning, 1, .*0, 2, float, .* has STS\.128
// sass: stencil3d_fused_strip_kernel<gpuprims::stencil3d_fused_tuning, 1, .*0, 2, float, .* has SHFL\.IDX
// sass: stencil3d_fused_strip_kernel<gpuprims::stencil3d_fused_tuning, 1, .*0, 2, float, .* has STG\.E\.128
// sass: stencil3d_fused_strip_kernel<gpuprims::stencil3d_fused_tuning, 1, .*1, 2, float, .* has FFMA
// sass: stencil3d_fused_strip_kernel<gpuprims::stencil3d_fused_tuning, 1, .*0, 2, double, .* has DFMA

// Every kernel behind a host launcher waits for the grids before it (griddepcontrol.wait: ACQBULK)
// and never signals its dependents early (PREEXIT), see detail/launch.cuh.
// sass: detail::stencil3d_[a-z_]*kernel< has ACQBULK
// sass: detail::stencil3d_[a-z_]*kernel< lacks PREEXIT

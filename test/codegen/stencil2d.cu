// Codegen checks for the 2D stencil and its fused steps (see check_sass.py): register streaming
// moves 16-byte words and shuffles neighbours along x, the shared tile keeps the tile and its halo
// in shared memory, and no kernel uses local memory or spills at any radius, shape or type.
#include <gpuprims/device/stencil2d.cuh>

template <int Rad, gpuprims::stencil_shape Shape, class T>
void single_step(const T* in, T* out) {
  const gpuprims::stencil2d_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil2d<Rad, Shape>(in, out, 1, 1, 1, 1, w);
}
#define GPUPRIMS_SINGLE_STEP(R, S, T) \
  template void single_step<R, gpuprims::stencil_shape::S, T>(const T*, T*);
#define GPUPRIMS_SINGLE_STEPS(R)       \
  GPUPRIMS_SINGLE_STEP(R, star, float) \
  GPUPRIMS_SINGLE_STEP(R, box, float)  \
  GPUPRIMS_SINGLE_STEP(R, star, double) GPUPRIMS_SINGLE_STEP(R, box, double)
GPUPRIMS_SINGLE_STEPS(1)
GPUPRIMS_SINGLE_STEPS(2)
GPUPRIMS_SINGLE_STEPS(3)
GPUPRIMS_SINGLE_STEPS(4)

template <int Rad, gpuprims::stencil_shape Shape, int Steps, class T>
void fused_steps(const T* in, T* out) {
  const gpuprims::stencil2d_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil2d_fused<Rad, Shape, Steps>(in, out, 1, 1, 1, 1, w);
}
template void fused_steps<1, gpuprims::stencil_shape::star, 3, float>(const float*, float*);
template void fused_steps<1, gpuprims::stencil_shape::box, 3, double>(const double*, double*);
template void fused_steps<1, gpuprims::stencil_shape::star, 8, float>(const float*, float*);
template void fused_steps<4, gpuprims::stencil_shape::box, 3, float>(const float*, float*);
template void fused_steps<3, gpuprims::stencil_shape::box, 5, float>(const float*, float*);
template void fused_steps<2, gpuprims::stencil_shape::box, 7, double>(const double*, double*);

// User updates (a heat step and a nonlinear radius-2 function) stream like the box of their
// radius, one step and fused.
template <class T>
struct heat_update {
  template <class At>
  __host__ __device__ T operator()(const At& at) const {
    const T u = at(0, 0);
    return u + T(0.2) * (at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1) - T(4) * u);
  }
};
template <class T>
struct corner_update {
  template <class At>
  __host__ __device__ T operator()(const At& at) const {
    const T c = at(2, -2);
    return c > T(0) ? c * at(-2, 2) : at(0, 1);
  }
};
template <int Rad, int Steps, class T, class F>
void update_steps(const T* in, T* out) {
  const auto step = gpuprims::make_stencil_update<Rad>(F{});
  if constexpr (Steps == 1) {
    (void)gpuprims::apply_stencil2d<Rad, gpuprims::stencil_shape::star>(in, out, 1, 1, 1, 1, step);
  } else {
    (void)gpuprims::apply_stencil2d_fused<Rad, gpuprims::stencil_shape::star, Steps>(in, out, 1, 1,
                                                                                     1, 1, step);
  }
}
template void update_steps<1, 1, float, heat_update<float>>(const float*, float*);
template void update_steps<1, 4, float, heat_update<float>>(const float*, float*);
template void update_steps<1, 8, float, heat_update<float>>(const float*, float*);
template void update_steps<2, 1, double, corner_update<double>>(const double*, double*);
template void update_steps<2, 3, double, corner_update<double>>(const double*, double*);
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, \(gpuprims::stencil_shape\)1, float, gpuprims::stencil_update has LDGSTS
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, .*float, gpuprims::stencil_update.* has SHFL\.IDX
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 2, .*double, gpuprims::stencil_update.* has LDG\.E\.128
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 1, .*4, float, gpuprims::stencil_update.* has LDGSTS\.E\.BYPASS\.128
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 1, .*4, float, gpuprims::stencil_update.* has STG\.E\.128
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 1, .*8, float, gpuprims::stencil_update.* has SHFL\.IDX
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 2, .*3, double, gpuprims::stencil_update.* has DMUL

// Register streaming (radius 1, both shapes; the radius-4 star of doubles): 16-byte loads and
// stores, neighbours by shuffles, fused multiply-adds; at radius 1 the float strips' rows staged
// in shared memory by cp.async (LDGSTS), elsewhere no shared memory.
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, \(gpuprims::stencil_shape\)0, float has LDGSTS
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, \(gpuprims::stencil_shape\)1, float has LDGSTS
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, \(gpuprims::stencil_shape\)0, double, .* lacks LDS
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, .*float has LDG\.E\.128
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, .*float has STG\.E\.128
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, .*float has SHFL\.IDX
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, .*float has FFMA
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 4, .*0, double, .* has LDG\.E\.128
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 4, .*0, double, .* has DFMA
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 4, .*0, double, .* lacks LDS
// The boxes of radius 3 and 4 take the shared tile: 32 x 32 outputs with a halo of 4 on every
// side, 40 x 40 floats or doubles.
// ptxas: stencil2d_tile_kernel<gpuprims::stencil2d_tuning, 4, .*1, float, .* smem 6400
// ptxas: stencil2d_tile_kernel<gpuprims::stencil2d_tuning, 4, .*1, double, .* smem 12800
// sass: stencil2d_tile_kernel<gpuprims::stencil2d_tuning, 4, .*1, double, .* has DFMA

// Fused steps that stream (up to 128 registers of rows: 3 and 8 steps of radius 1, 3 of the
// radius-4 box): every input row through the ring of rows in flight (cp.async on sm_90: LDGSTS,
// 16 bytes a lane where whole and aligned, at the grid's edges too; no other global load), 16-byte
// stores, shuffles, no other shared memory, and no spill (the ptxas rule above).
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 1, .*3, float has LDGSTS\.E\.BYPASS\.128
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 1, .*3, float lacks LDG\.
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 1, .*3, float has STG\.E\.128
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 1, .*3, float has SHFL\.IDX
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 1, .*3, float has FFMA
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 1, .*3, double, .* has DFMA
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 1, .*8, float has LDGSTS
// sass: stencil2d_fused_strip_kernel<gpuprims::stencil2d_fused_tuning, 4, .*3, float has LDGSTS
// Deeper fusions take the shared tile: two buffers of the span and a ring of the radius,
// (64 + 6) x (64 + 6) floats at radius 3, (32 + 4) x (64 + 4) doubles at radius 2 (within 48 KiB
// of static shared memory).
// ptxas: stencil2d_fused_kernel<gpuprims::stencil2d_fused_tuning, 3, .*5, float, .* smem 39200
// ptxas: stencil2d_fused_kernel<gpuprims::stencil2d_fused_tuning, 2, .*7, double, .* smem 39168
// sass: stencil2d_fused_kernel<gpuprims::stencil2d_fused_tuning, 3, .*5, float has FFMA

// Every kernel behind a host launcher waits for the grids before it (griddepcontrol.wait: ACQBULK;
// the 2D launches are dependent on sm_90) and never signals its dependents early (PREEXIT), see
// detail/launch.cuh.
// sass: detail::stencil2d_[a-z_]*kernel< has ACQBULK
// sass: detail::stencil2d_[a-z_]*kernel< lacks PREEXIT

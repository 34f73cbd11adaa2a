// Codegen checks for the 3D stencil (see check_sass.py): the planes in shared memory,
// fused multiply-adds, and no local memory at any radius.
#include <gpuprims/device/stencil3d.cuh>

template <int Rad, gpuprims::stencil_shape Shape, class T>
void launchers(const T* in, T* out) {
  const gpuprims::stencil3d_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil3d<Rad, Shape>(in, out, 1, 1, 1, 1, 1, 1, 1, w);
}
template void launchers<1, gpuprims::stencil_shape::star, float>(const float*, float*);
template void launchers<1, gpuprims::stencil_shape::box, float>(const float*, float*);
template void launchers<4, gpuprims::stencil_shape::box, float>(const float*, float*);
template void launchers<4, gpuprims::stencil_shape::box, double>(const double*, double*);
template void launchers<3, gpuprims::stencil_shape::star, double>(const double*, double*);

// The star's ring of 2 Rad + 2 planes of the tile and halo: radius 1, floats, 32 x 32 tiles:
// 4 x 34 x 34. The box's two planes: radius 1, floats, 32 x 32: 2 x 34 x 34; radius 4, floats,
// 32 x 16: 2 x 24 x 40; radius 4, doubles, 32 x 8: 2 x 16 x 40.
// ptxas: stencil3d_kernel<gpuprims::stencil3d_tuning, 1, .*0, float, .* smem 18496
// ptxas: stencil3d_kernel<gpuprims::stencil3d_tuning, 1, .*1, float, .* smem 9248
// ptxas: stencil3d_kernel<gpuprims::stencil3d_tuning, 4, .*float, .* smem 7680
// ptxas: stencil3d_kernel<gpuprims::stencil3d_tuning, 4, .*double, .* smem 10240
// sass: stencil3d_kernel<gpuprims::stencil3d_tuning, 1, .*float has FFMA
// sass: stencil3d_kernel<gpuprims::stencil3d_tuning, 4, .*double has DFMA

// Every kernel behind a host launcher waits for the grids before it (griddepcontrol.wait: ACQBULK)
// and never signals its dependents early (PREEXIT), see detail/launch.cuh.
// sass: detail::stencil3d_kernel< has ACQBULK
// sass: detail::stencil3d_kernel< lacks PREEXIT

// Codegen checks for the 2D stencil (see check_sass.py): the tile and its halo in shared memory,
// fused multiply-adds, and no local memory at any radius.
#include <gpuprims/device/stencil2d.cuh>

template <int Rad, gpuprims::stencil_shape Shape, class T>
void launchers(const T* in, T* out) {
  const gpuprims::stencil2d_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil2d<Rad, Shape>(in, out, 1, 1, 1, 1, w);
}
template void launchers<1, gpuprims::stencil_shape::star, float>(const float*, float*);
template void launchers<4, gpuprims::stencil_shape::box, float>(const float*, float*);
template void launchers<4, gpuprims::stencil_shape::box, double>(const double*, double*);

// A 32 x 32 tile with a halo of 1 on every side: 34 x 34 floats; of 4: 40 x 40 doubles.
// ptxas: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, .*float, .* smem 4624
// ptxas: stencil2d_kernel<gpuprims::stencil2d_tuning, 4, .*double, .* smem 12800
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, .*float has FFMA
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 4, .*double has DFMA

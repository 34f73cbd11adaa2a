// Codegen checks for the 2D stencil and its fused steps (see check_sass.py): the tile and its halo
// in shared memory, fused multiply-adds, and no local memory at any radius.
#include <gpuprims/device/stencil2d.cuh>

template <int Rad, gpuprims::stencil_shape Shape, class T>
void launchers(const T* in, T* out) {
  const gpuprims::stencil2d_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil2d<Rad, Shape>(in, out, 1, 1, 1, 1, w);
  if constexpr (!(Rad == 4 && Shape == gpuprims::stencil_shape::box && sizeof(T) == 8)) {
    (void)gpuprims::apply_stencil2d_fused<Rad, Shape, 3>(in, out, 1, 1, 1, 1, w);
  }
}
template void launchers<1, gpuprims::stencil_shape::star, float>(const float*, float*);
template void launchers<4, gpuprims::stencil_shape::box, float>(const float*, float*);
template void launchers<4, gpuprims::stencil_shape::box, double>(const double*, double*);
template void launchers<3, gpuprims::stencil_shape::box, double>(const double*, double*);

// A 32 x 32 tile with a halo of 1 on every side: 34 x 34 floats; of 4: 40 x 40 doubles.
// ptxas: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, .*float, .* smem 4624
// ptxas: stencil2d_kernel<gpuprims::stencil2d_tuning, 4, .*double, .* smem 12800
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 1, .*float has FFMA
// sass: stencil2d_kernel<gpuprims::stencil2d_tuning, 4, .*double has DFMA

// Three fused steps: two buffers of the span and a ring of the radius, (64 + 2) x (64 + 2) floats
// at radius 1, (32 + 6) x (64 + 6) doubles at radius 3 (within 48 KiB of static shared memory).
// ptxas: stencil2d_fused_kernel<gpuprims::stencil2d_fused_tuning, 1, .*float, .* smem 34848
// ptxas: stencil2d_fused_kernel<gpuprims::stencil2d_fused_tuning, 3, .*double, .* smem 42560
// sass: stencil2d_fused_kernel<gpuprims::stencil2d_fused_tuning, 1, .*float has FFMA

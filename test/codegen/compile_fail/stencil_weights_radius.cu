// expect: the weights' radius differs from the stencil's
// stencil1d<Rad> with weights of another radius would read past the weights: a compile error.
#include <gpuprims/device/stencil.cuh>

cudaError_t wrong_radius(const float* in, float* out, std::size_t n) {
  const gpuprims::stencil_weights<float, 1> w{{1.f, -2.f, 1.f}};
  return gpuprims::apply_stencil1d<3>(in, out, n, w);
}

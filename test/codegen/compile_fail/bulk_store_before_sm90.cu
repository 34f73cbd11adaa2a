// expect: bulk copies need sm_90 or later
// arch: sm_80
// A bulk copy reaching code for an architecture without one fails to compile, never compiles to
// nothing.
#include <gpuprims/detail/arch/bulk_copy.cuh>

__global__ void store(float* out, const float* staged) {
  gpuprims::detail::arch::bulk_store(out, staged, 16);
}

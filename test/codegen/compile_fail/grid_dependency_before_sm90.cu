// expect: griddepcontrol needs sm_90 or later
// arch: sm_86
// griddepcontrol reaching code for an architecture without it fails to compile, never compiles to
// nothing.
#include <gpuprims/detail/arch/grid_dependency.cuh>

__global__ void wait() { gpuprims::detail::arch::griddepcontrol_wait(); }

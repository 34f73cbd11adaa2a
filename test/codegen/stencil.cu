// Codegen checks for the stencil, its fused steps and its ladder (see check_sass.py): the default
// moves 16-byte words (global loads and stores, shared-memory windows), and no kernel of any radius
// uses local memory.
#include <gpuprims/device/stencil.cuh>
#include <gpuprims/ladder/stencil.cuh>

#include <cstddef>

// The kernels behind the host launchers, instantiated by calling them.
template <int Rad, class T>
void launchers(const T* in, T* out) {
  using gpuprims::ladder::stencil_rung;
  const gpuprims::stencil_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil1d<Rad>(in, out, 0, w);
  (void)gpuprims::ladder::apply_stencil1d<Rad, stencil_rung::naive>(in, out, 0, w);
  (void)gpuprims::ladder::apply_stencil1d<Rad, stencil_rung::shared_halo>(in, out, 0, w);
  (void)gpuprims::ladder::apply_stencil1d<Rad, stencil_rung::shared_vectorized>(in, out, 0, w);
  (void)gpuprims::apply_stencil1d_fused<Rad, 4>(in, out, 0, w);
}
template void launchers<1>(const float*, float*);
template void launchers<3>(const float*, float*);
template void launchers<8>(const float*, float*);
template void launchers<16>(const float*, float*);
template void launchers<3>(const double*, double*);
template void launchers<8>(const double*, double*);
template void launchers<16>(const double*, double*);

// The tile and halo of Rad 3, 256 threads x 8 floats (the sm_90 policy): (4 + 2048 + 4) floats,
// the halo padded to a 16-byte vector on each side; the notes' rung, 256 x 1 floats:
// (4 + 256 + 4).
// ptxas: stencil_kernel<gpuprims::stencil_tuning, 3, float, .*> smem 8224
// ptxas: stencil_kernel<gpuprims::ladder::stencil_shared_tuning<1>, 3, float, .*> smem 1056
// sass: stencil_kernel<gpuprims::stencil_tuning, 3, float, .*> has LDG\.E\.128
// sass: stencil_kernel<gpuprims::stencil_tuning, 3, float, .*> has STG\.E\.128
// sass: stencil_kernel<gpuprims::stencil_tuning, 3, float, .*> has LDS\.128
// sass: stencil_kernel<gpuprims::stencil_tuning, 16, double, .*> has STG\.E\.128
// sass: stencil_kernel<gpuprims::ladder::stencil_shared_tuning<1>, 3, float, .*> lacks [LS]TG\.E\.128
// sass: stencil_naive_kernel lacks LDS

// Four fused steps of Rad 3 over floats (every architecture's policy): each warp in registers, a
// run of 16 floats a lane; 16-byte words in and out of global memory, turned between the coalesced
// order and the lanes' runs through a stage of 32 x 4 16-byte words a warp (4 warps: 8 KiB),
// halos by shuffles. Doubles keep a block's tile in shared memory (sm_90: 256 threads x 8 doubles,
// two buffers of (4 + 12 + 2024 + 12 + 4) doubles), 16-byte words in and out of it at every step.
// ptxas: stencil_fused_warp_kernel<gpuprims::stencil_fused_tuning, 3, 4, float, .*> smem 8192
// sass: stencil_fused_warp_kernel<gpuprims::stencil_fused_tuning, 3, 4, float, .*> has LDG\.E\.128
// sass: stencil_fused_warp_kernel<gpuprims::stencil_fused_tuning, 3, 4, float, .*> has STG\.E\.128
// sass: stencil_fused_warp_kernel<gpuprims::stencil_fused_tuning, 3, 4, float, .*> has SHFL\.IDX
// sass: stencil_fused_warp_kernel<gpuprims::stencil_fused_tuning, 3, 4, float, .*> has LDS\.128
// sass: stencil_fused_warp_kernel<gpuprims::stencil_fused_tuning, 3, 4, float, .*> has STS\.128
// ptxas: stencil_fused_kernel<gpuprims::stencil_fused_tuning, 3, 4, double, .*> smem 32896
// sass: stencil_fused_kernel<gpuprims::stencil_fused_tuning, 3, 4, double, .*> has LDG\.E\.128
// sass: stencil_fused_kernel<gpuprims::stencil_fused_tuning, 3, 4, double, .*> has STG\.E\.128
// sass: stencil_fused_kernel<gpuprims::stencil_fused_tuning, 3, 4, double, .*> has LDS\.128
// sass: stencil_fused_kernel<gpuprims::stencil_fused_tuning, 3, 4, double, .*> has STS\.128

// Every kernel behind a host launcher waits for the grids before it (griddepcontrol.wait: ACQBULK)
// and never signals its dependents early (launch_dependents: PREEXIT, costly in grids of many small
// blocks), see detail/launch.cuh.
// sass: detail::stencil_[a-z]*_kernel< has ACQBULK
// sass: detail::stencil_[a-z]*_kernel< lacks PREEXIT

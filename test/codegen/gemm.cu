// Codegen checks for the FP32 gemm and its ladder (see check_sass.py): the default's tile moves
// 16-byte words (global loads and stores where aligned, shared-memory reads of the register tile),
// and no rung uses local memory.
#include <gpuprims/device/gemm.cuh>
#include <gpuprims/ladder/gemm.cuh>

void launchers(const float* a, const float* b, float* c) {
  using gpuprims::ladder::gemm_rung;
  (void)gpuprims::gemm(a, b, c, 1, 1, 1, 1, 1, 1, 1.0f, 0.0f);
  (void)gpuprims::ladder::gemm<gemm_rung::shared_16x16>(a, b, c, 1, 1, 1, 1, 1, 1, 1.0f, 0.0f);
  (void)gpuprims::ladder::gemm<gemm_rung::blocktiling_2d>(a, b, c, 1, 1, 1, 1, 1, 1, 1.0f, 0.0f);
}

// sass: gemm_tile_kernel<gpuprims::gemm_tuning, 0> has LDG\.E\.128
// sass: gemm_tile_kernel<gpuprims::gemm_tuning, 0> has STG\.E\.128
// sass: gemm_tile_kernel<gpuprims::gemm_tuning, 0> has LDS\.128
// sass: gemm_tile_kernel<gpuprims::gemm_tuning, 0> has FFMA
// sass: gemm_tile_kernel<gpuprims::gemm_tuning, 2> has LDG\.E\.128
// sass: gemm_tile_kernel<gpuprims::gemm_tuning, 2> has LDS\.128
// Two stages of (8 x (128 + 4) + 8 x (256 + 4)) floats; of (16 x (128 + 4) + 16 x (64 + 4)).
// ptxas: gemm_tile_kernel<gpuprims::gemm_tuning, 0> smem 25088
// ptxas: gemm_tile_kernel<gpuprims::gemm_tuning, 1> smem 33792
// ptxas: gemm_tile_kernel<gpuprims::gemm_tuning, 2> smem 25600

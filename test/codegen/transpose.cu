// Codegen checks for the transpose and its ladder (see check_sass.py).
#include <gpuprims/block/transpose.cuh>
#include <gpuprims/device/transpose.cuh>
#include <gpuprims/ladder/transpose.cuh>

#include <cstddef>

template <std::size_t Size, std::size_t Align>
struct alignas(Align) blob {
  unsigned char bytes[Size];
};

// The kernels behind the host launchers, instantiated by calling them, for every element size the
// tests use (the no-local-memory / no-spill check covers them all).
template <class T>
void launchers(const T* in, T* out) {
  using gpuprims::ladder::transpose_rung;
  (void)gpuprims::transpose(in, out, 0, 0);
  (void)gpuprims::ladder::transpose<transpose_rung::naive>(in, out, 0, 0);
  (void)gpuprims::ladder::transpose<transpose_rung::shared_unpadded>(in, out, 0, 0);
  (void)gpuprims::ladder::transpose<transpose_rung::shared_padded>(in, out, 0, 0);
  (void)gpuprims::ladder::transpose<transpose_rung::register_4x4>(in, out, 0, 0);
  (void)gpuprims::ladder::transpose<transpose_rung::register_2x2>(in, out, 0, 0);
}
template void launchers(const float*, float*);
template void launchers(const double*, double*);
template void launchers(const unsigned char*, unsigned char*);
template void launchers(const unsigned short*, unsigned short*);
template void launchers(const blob<16, 16>*, blob<16, 16>*);

// A user kernel calling the device template.
extern "C" __global__ void user_transpose(const float* in, float* out, std::size_t rows,
                                          std::size_t cols) {
  using tile_t = gpuprims::tiled_transpose<32, 1, float>;
  __shared__ tile_t::storage tile;
  tile_t(tile).transpose(in, cols, out, rows, rows, cols, blockIdx.y * 32ull, blockIdx.x * 32ull);
}

// The padded 32 x 32 tile of 4-byte elements is exactly [32][33] floats; the unpadded one [32][32].
// ptxas: transpose_kernel<gpuprims::ladder::transpose_shared32_tuning<1>, float, false, false> smem 4224
// ptxas: transpose_kernel<gpuprims::ladder::transpose_shared32_tuning<1>, float, true, false> smem 4224
// ptxas: ^user_transpose$ smem 4224
// ptxas: transpose_kernel<gpuprims::ladder::transpose_shared32_tuning<0>, float, true, false> smem 4096
// The default for 4-byte elements: a 64 x 65 tile; its bulk-store form adds the staged output rows
// (64 x 68 floats: 16-byte aligned rows) and writes whole rows with the copy engine (UBLKCP); the
// ordinary form never does.
// ptxas: transpose_kernel<gpuprims::transpose_tuning, float, true, false> smem 16640
// ptxas: transpose_kernel<gpuprims::transpose_tuning, float, true, true> smem 34048
// sass: transpose_kernel<gpuprims::transpose_tuning, float, true, true> has UBLKCP
// sass: transpose_kernel<gpuprims::transpose_tuning, float, false, true> has UBLKCP
// sass: transpose_kernel<gpuprims::transpose_tuning, float, true, false> lacks UBLKCP
// Bulk stores are for 4-byte elements only: the double kernel asked for them compiles ordinary
// stores.
// sass: transpose_kernel<gpuprims::transpose_tuning, double, true, true> lacks UBLKCP
// sass: transpose_kernel has LDS
// sass: transpose_kernel has STS
// sass: transpose_naive_kernel lacks LDS
// The register tiles move 4 x 4 floats as float4 rows and 2 x 2 as float2 rows, no shared memory.
// sass: transpose_register_kernel<4, true, 32, 8, float> has LDG\.E\.128
// sass: transpose_register_kernel<4, true, 32, 8, float> has STG\.E\.128
// sass: transpose_register_kernel<2, true, 32, 8, float> has LDG\.E\.64
// sass: transpose_register_kernel<2, true, 32, 8, float> has STG\.E\.64
// sass: transpose_register_kernel<2, true, 32, 8, double> has STG\.E\.128
// sass: transpose_register_kernel<4, true, 32, 8, unsigned short> has STG\.E\.64
// sass: transpose_register_kernel<4, false, 32, 8, float> lacks [LS]TG\.E\.(64|128)
// sass: transpose_register_kernel lacks LDS

// Every kernel behind a host launcher waits for the grids before it (griddepcontrol.wait: ACQBULK)
// and never signals its dependents early (launch_dependents: PREEXIT, costly in grids of many small
// blocks), see detail/launch.cuh; the device templates called from users' kernels do neither.
// sass: detail::transpose_[a-z]*_kernel< has ACQBULK
// sass: detail::transpose_[a-z]*_kernel< lacks PREEXIT
// sass: ^user_transpose$ lacks ACQBULK|PREEXIT

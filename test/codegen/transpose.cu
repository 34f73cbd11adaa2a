// Codegen checks for the transpose ladder (see check_sass.py).
#include <gpuprims/transpose.cuh>

#include <cstddef>

using gpuprims::detail::transpose_shape;

template __global__ void gpuprims::detail::transpose_naive_kernel<32, 8, float>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_shared_kernel<32, 0, 8, float>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_shared_kernel<32, 1, 8, float>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_shared_kernel<32, 1, 8, double>(const double*, double*, transpose_shape);
// What the launcher runs for full grids: one block per tile, registers capped for 8 blocks per SM.
template __global__ void gpuprims::detail::transpose_shared_kernel<32, 1, 8, float, 8, true>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_shared_kernel<32, 0, 8, float, 8, true>(const float*, float*, transpose_shape);
// The default for elements of up to 4 bytes: 64 x 64 tiles, 4 blocks per SM.
template __global__ void gpuprims::detail::transpose_shared_kernel<64, 1, 8, float, 4, true>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_shared_kernel<64, 1, 8, float, 4, false>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_shared_kernel<64, 2, 8, unsigned short, 4, true>(const unsigned short*, unsigned short*, transpose_shape);
template __global__ void gpuprims::detail::transpose_shared_kernel<64, 4, 8, unsigned char, 4, true>(const unsigned char*, unsigned char*, transpose_shape);
// ... and its bulk-store form, which the launcher runs for large float matrices whose output rows
// are 16-byte aligned.
template __global__ void gpuprims::detail::transpose_shared_kernel<64, 1, 8, float, 4, true, true>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_shared_kernel<64, 1, 8, float, 4, false, true>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_register_kernel<4, true, 32, 8, float>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_register_kernel<4, false, 32, 8, float>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_register_kernel<2, true, 32, 8, float>(const float*, float*, transpose_shape);
template __global__ void gpuprims::detail::transpose_register_kernel<2, true, 32, 8, double>(const double*, double*, transpose_shape);
// Every element size the tests use, for the no-local-memory / no-spill check.
#define GPUPRIMS_REGISTER_KERNELS(T)                                                                            \
  template __global__ void gpuprims::detail::transpose_register_kernel<4, false, 32, 8, T>(const T*, T*, transpose_shape); \
  template __global__ void gpuprims::detail::transpose_register_kernel<2, false, 32, 8, T>(const T*, T*, transpose_shape); \
  template __global__ void gpuprims::detail::transpose_shared_kernel<32, 1, 8, T>(const T*, T*, transpose_shape);
GPUPRIMS_REGISTER_KERNELS(unsigned char)
GPUPRIMS_REGISTER_KERNELS(unsigned short)
GPUPRIMS_REGISTER_KERNELS(uint4)
template __global__ void gpuprims::detail::transpose_register_kernel<4, true, 32, 8, unsigned char>(const unsigned char*, unsigned char*, transpose_shape);
template __global__ void gpuprims::detail::transpose_register_kernel<2, true, 32, 8, unsigned char>(const unsigned char*, unsigned char*, transpose_shape);
template __global__ void gpuprims::detail::transpose_register_kernel<4, true, 32, 8, unsigned short>(const unsigned short*, unsigned short*, transpose_shape);
template __global__ void gpuprims::detail::transpose_register_kernel<2, true, 32, 8, unsigned short>(const unsigned short*, unsigned short*, transpose_shape);
template __global__ void gpuprims::detail::transpose_register_kernel<2, false, 32, 8, double>(const double*, double*, transpose_shape);

// A user kernel calling the device template.
extern "C" __global__ void user_transpose(const float* in, float* out, std::size_t rows, std::size_t cols) {
  __shared__ gpuprims::tiled_transpose<32, 1>::storage<float> tile;
  gpuprims::tiled_transpose<32, 1>::transpose_tile(tile, in, cols, out, rows, rows, cols, blockIdx.y * 32ull,
                                                    blockIdx.x * 32ull);
}

// The padded tile of 4-byte elements is exactly [32][33] floats; the unpadded one [32][32].
// ptxas: transpose_shared_kernel<32, 1, 8, float, 0, false, false> smem 4224
// ptxas: transpose_shared_kernel<32, 1, 8, float, 8, true, false> smem 4224
// ptxas: ^user_transpose$ smem 4224
// ptxas: transpose_shared_kernel<32, 0, 8, float, 8, true, false> smem 4096
// The bulk-store form adds the staged output rows (64 x 68 floats: 16-byte aligned rows) to the
// 64 x 65 tile and writes whole rows with the copy engine (UBLKCP); the ordinary kernel never does.
// ptxas: transpose_shared_kernel<64, 1, 8, float, 4, true, true> smem 34048
// sass: transpose_shared_kernel<64, 1, 8, float, 4, true, true> has UBLKCP
// sass: transpose_shared_kernel<64, 1, 8, float, 4, false, true> has UBLKCP
// sass: transpose_shared_kernel<64, 1, 8, float, 4, true, false> lacks UBLKCP
// sass: transpose_shared_kernel has LDS
// sass: transpose_shared_kernel has STS
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
// blocks), see detail/dependent_launch.cuh; the device templates called from users' kernels do neither.
// sass: detail::transpose_[a-z]*_kernel< has ACQBULK
// sass: detail::transpose_[a-z]*_kernel< lacks PREEXIT
// sass: ^user_transpose$ lacks ACQBULK|PREEXIT

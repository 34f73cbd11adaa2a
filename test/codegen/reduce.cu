// Codegen checks for the reductions (see check_sass.py).
#include <gpuprims/block/reduce.cuh>
#include <gpuprims/device/reduce.cuh>
#include <gpuprims/device/segmented_reduce.cuh>
#include <gpuprims/ladder/reduce.cuh>
#include <gpuprims/warp/reduce.cuh>

#include <cuda_bf16.h>

extern "C" __global__ void block_sum_float(const float* in, float* out) {
  using reduce_t = gpuprims::block_reduce<256, gpuprims::plus<float>>;
  __shared__ reduce_t::storage s;
  const float total = reduce_t(s).reduce(in[blockIdx.x * 256 + threadIdx.x]);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = total;
  }
}

extern "C" __global__ void block_sum_bf16_partial(const __nv_bfloat16* in, float* out, int valid) {
  using reduce_t = gpuprims::block_reduce<992, gpuprims::plus<float>>;
  __shared__ reduce_t::storage s;
  const float x = threadIdx.x < valid ? static_cast<float>(in[threadIdx.x]) : 0.0f;
  out[threadIdx.x] = reduce_t(s).all_reduce(x, valid);
}

extern "C" __global__ void warp_max_double(const double* in, double* out) {
  const double m = gpuprims::warp_reduce(in[threadIdx.x], gpuprims::maximum<double>{});
  if (threadIdx.x == 0) {
    *out = m;
  }
}

// The kernels behind gpuprims::reduce and the ladder's driver, instantiated by calling them.
void launchers(const float* f, float* g, const signed char* b, long long* l, const int* i, int* j) {
  (void)gpuprims::reduce(f, g, 0, 0.0f, gpuprims::plus<float>{});
  (void)gpuprims::reduce(b, l, 0, 0ll, gpuprims::plus<long long>{});
  (void)gpuprims::segmented_reduce(f, i, g, 0, 0.0f, gpuprims::plus<float>{});
  (void)gpuprims::reduce_rows(f, g, 0, 0, 0, 0.0f, gpuprims::plus<float>{});
  using gpuprims::ladder::reduce_rung;
  (void)gpuprims::ladder::reduce<reduce_rung::reduce0_interleaved_modulo>(i, j, 1, nullptr, 0);
  (void)gpuprims::ladder::reduce<reduce_rung::reduce1_interleaved_strided>(i, j, 1, nullptr, 0);
  (void)gpuprims::ladder::reduce<reduce_rung::reduce2_sequential>(i, j, 1, nullptr, 0);
  (void)gpuprims::ladder::reduce<reduce_rung::reduce5_complete_unroll>(i, j, 1, nullptr, 0);
  (void)gpuprims::ladder::reduce<reduce_rung::warp_shuffle_cascading>(i, j, 1, nullptr, 0);
}

// Every pass loads 16-byte words: the first over the items (floats; int8 summed into int64), the
// later ones over the partials. No atomics: nothing is counted, so nothing is left to reset and the
// order never depends on arrival.
// sass: reduce_pass_kernel<gpuprims::reduce_tuning, (false|true), float, .*float> has LDG\.E\.128
// sass: reduce_pass_kernel<gpuprims::reduce_tuning, (false|true), long long, .*signed char> has LDG\.E\.128
// sass: reduce_pass_kernel<gpuprims::reduce_tuning, (false|true), long long, .*long long> has LDG\.E\.128
// sass: reduce_pass_kernel<gpuprims::reduce_tuning lacks ATOM|RED\.
// reduce_rows' long rows, cut into tiles, and its row groups load 16-byte words too.
// sass: reduce_row_tiles_kernel<gpuprims::reduce_rows_tuning, float, .*float> has LDG\.E\.128
// sass: reduce_row_groups_kernel<gpuprims::reduce_rows_tuning, float, .*float> has LDG\.E\.128
// Packed short rows (reduce_rows_policy::packed_max_cols) load 16-byte words and store each word's
// results together: 16 bytes for rows of one float, 8 for two, 4 for four.
// sass: reduce_packed_rows_kernel<gpuprims::reduce_rows_tuning, .*float> has LDG\.E\.128
// sass: reduce_packed_rows_kernel<gpuprims::reduce_rows_tuning, 1[^,]*, float, .*float> has STG\.E\.128
// sass: reduce_packed_rows_kernel<gpuprims::reduce_rows_tuning, 2[^,]*, float, .*float> has STG\.E\.64
// sass: reduce_packed_rows_kernel<gpuprims::reduce_rows_tuning, .*float> lacks (LDL|STL)
// Rows of 2 to 32 words: a lane a word, the row's lanes combined by shuffles.
// sass: reduce_lane_rows_kernel<gpuprims::reduce_rows_tuning, .*float> has LDG\.E\.128
// sass: reduce_lane_rows_kernel<gpuprims::reduce_rows_tuning, .*float> has SHFL\.DOWN
// sass: reduce_lane_rows_kernel<gpuprims::reduce_rows_tuning, .*float> lacks (LDL|STL)

// segmented_reduce reads its items in 16-byte words, keeps everything in registers (no local
// memory), and counts nothing either.
// sass: segmented_reduce_kernel<gpuprims::segmented_reduce_tuning, float, .*float has LDG\.E\.128
// sass: segmented_(reduce|fixup)_kernel< lacks ATOM|RED\.
// sass: segmented_(reduce|fixup)_kernel< lacks (LDL|STL)

// The warp level is shuffles, not shared memory; the block level adds one shared slot per warp
// (8 floats and the all_reduce result for 256 threads).
// sass: ^(block_sum_float|block_sum_bf16_partial|warp_max_double)$ has SHFL\.DOWN
// sass: ^warp_max_double$ lacks (LDS|STS)
// ptxas: ^block_sum_float$ smem 36

// Every kernel behind a host launcher waits for the grids before it (griddepcontrol.wait: ACQBULK)
// and signals its dependents early (launch_dependents: PREEXIT, costly in grids of many small
// blocks) only where the policy asks for it at run time: a reduce pass of few tiles, or the one
// that writes the result, see tuning/reduce.cuh; the device templates called from users' kernels
// do neither. The ladder's kernels are launched plainly, as the notes launch them.
// sass: detail::(reduce_pass|write_value|segmented_reduce|segmented_fixup|reduce_rows|reduce_row_tiles|reduce_row_groups|reduce_packed_rows|reduce_lane_rows)_kernel< has ACQBULK
// sass: detail::(?!reduce_pass|segmented_reduce)[a-z_]*_kernel< lacks PREEXIT
// sass: detail::(reduce_pass|segmented_reduce)_kernel< has PREEXIT
// sass: ladder_reduce_kernel lacks ACQBULK
// sass: ^(block_sum_float|block_sum_bf16_partial|warp_max_double)$ lacks ACQBULK|PREEXIT

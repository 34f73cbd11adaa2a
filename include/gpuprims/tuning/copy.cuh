// Tuning of gpuprims::copy and copy_vectorized: a plain policy, chosen by architecture. Pass your
// own selector (a type with the same static select) as the launchers' Tuning argument to override
// it.
#pragma once

#include <gpuprims/config.cuh>

namespace gpuprims {

/// How the copy launchers shape their grid.
struct copy_policy {
  int block_threads;      ///< threads per block
  int unroll;             ///< vectors in flight per thread for inputs below `unroll_below`
  int unroll_below;       ///< vectors per resident thread under which `unroll` applies (1 above)
  bool dependent_launch;  ///< programmatic dependent launch where the code has it (sm_90 and later)
};

/// The library's copy policy for code built for `arch` (compute capability x 10). One shape for
/// every architecture: the grid is sized from the device's resident threads at run time.
struct copy_tuning {
  __host__ __device__ static constexpr copy_policy select(int /*arch*/) {
    copy_policy p{};
    // H100, copy/vector_copy<4> at 2^28 floats: a grid covering the input, one vector a thread,
    // streamed ~4% faster than a persistent grid-stride grid (notes/copy.md).
    p.block_threads = 256;
    // H100, copy/vector_copy<4> at 2^20 floats (L2-sized): 4 vectors a thread, a quarter of the
    // blocks to schedule, 1.14x cub::DeviceTransform (notes/copy.md).
    p.unroll = 4;
    // Between the sizes measured on the H100: 2^20 floats (1 float4 per resident thread) take
    // the 4-vector grid, 2^24 and 2^28 (16 and 248) one vector a thread.
    p.unroll_below = 8;
    // H100, reduce_float/gpuprims::reduce against its plain launch: 4.17 vs 5.23 us at 2^20
    // (docs/design.md); in a copy the wait cost nothing, 887 us either way (notes/design.md).
    p.dependent_launch = true;
    return p;
  }
};

}  // namespace gpuprims

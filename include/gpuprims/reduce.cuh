// Umbrella header of the reductions: the operators (types.cuh), warp_reduce and
// logical_warp_reduce (warp/reduce.cuh), block_reduce and block_segmented_reduce (block/), the
// device-wide gpuprims::reduce and reduce_rows (device/reduce.cuh), segmented_reduce and
// reduce_batched (device/segmented_reduce.cuh), with their tuning.
#pragma once

#include <gpuprims/block/reduce.cuh>
#include <gpuprims/block/segmented_reduce.cuh>
#include <gpuprims/device/reduce.cuh>
#include <gpuprims/device/segmented_reduce.cuh>
#include <gpuprims/tuning/reduce.cuh>
#include <gpuprims/types.cuh>
#include <gpuprims/warp/reduce.cuh>

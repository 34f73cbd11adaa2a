// Umbrella header of the reductions: the operators (types.cuh), warp_reduce (warp/reduce.cuh),
// block_reduce (block/reduce.cuh) and the device-wide gpuprims::reduce (device/reduce.cuh), with
// its tuning.
#pragma once

#include <gpuprims/block/reduce.cuh>
#include <gpuprims/device/reduce.cuh>
#include <gpuprims/tuning/reduce.cuh>
#include <gpuprims/types.cuh>
#include <gpuprims/warp/reduce.cuh>

// Umbrella header of the transpose: tiled_transpose for your kernels (block/transpose.cuh) and the
// host launcher gpuprims::transpose (device/transpose.cuh), with its tuning.
#pragma once

#include <gpuprims/block/transpose.cuh>
#include <gpuprims/device/transpose.cuh>
#include <gpuprims/tuning/transpose.cuh>

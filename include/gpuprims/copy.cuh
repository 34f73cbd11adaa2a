// Umbrella header of the copy: vector_copy<N> for your kernels (block/copy.cuh) and the host
// launchers gpuprims::copy and copy_vectorized<N> (device/copy.cuh), with their tuning.
#pragma once

#include <gpuprims/block/copy.cuh>
#include <gpuprims/device/copy.cuh>
#include <gpuprims/tuning/copy.cuh>

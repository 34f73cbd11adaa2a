// Umbrella header of the FP32 matrix product: block_gemm_tile (block/gemm.cuh) and gemm
// (device/gemm.cuh), with its tuning.
#pragma once

#include <gpuprims/block/gemm.cuh>
#include <gpuprims/device/gemm.cuh>
#include <gpuprims/tuning/gemm.cuh>

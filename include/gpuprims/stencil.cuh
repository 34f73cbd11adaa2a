// Umbrella header of the stencils: the boundary rules and weights (types.cuh), the 1D, 2D and 3D
// block templates and the 2D and 3D warp strips for your kernels (block/stencil*.cuh,
// warp/stencil*.cuh) and their host launchers (device/stencil*.cuh), with their tuning.
#pragma once

#include <gpuprims/block/stencil.cuh>
#include <gpuprims/block/stencil2d.cuh>
#include <gpuprims/block/stencil3d.cuh>
#include <gpuprims/device/stencil.cuh>
#include <gpuprims/device/stencil2d.cuh>
#include <gpuprims/device/stencil3d.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>
#include <gpuprims/warp/stencil2d.cuh>
#include <gpuprims/warp/stencil3d.cuh>

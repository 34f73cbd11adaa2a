// Umbrella header of the stencils: the boundary rules and weights (types.cuh), stencil1d for your
// kernels (block/stencil.cuh) and the host launcher gpuprims::apply_stencil1d (device/stencil.cuh),
// with its tuning.
#pragma once

#include <gpuprims/block/stencil.cuh>
#include <gpuprims/block/stencil2d.cuh>
#include <gpuprims/device/stencil.cuh>
#include <gpuprims/device/stencil2d.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

// gpuprims' multi-GPU layer (CMake target gpuprims::multi, which links NCCL; the rest of the
// library never needs it): the communicator handle, the distributed stencils with their halo
// exchange, and the reductions with the same bits on every rank and run. docs/multi-gpu.md.
#pragma once

#include <gpuprims/multi/communicator.cuh>
#include <gpuprims/multi/reduce.cuh>
#include <gpuprims/multi/stencil.cuh>

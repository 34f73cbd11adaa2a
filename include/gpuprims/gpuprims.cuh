// Umbrella header: every gpuprims primitive.
#pragma once

#include <gpuprims/copy.cuh>
#include <gpuprims/reduce.cuh>
#include <gpuprims/stencil.cuh>
#include <gpuprims/transpose.cuh>

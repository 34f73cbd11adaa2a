// Umbrella header: every gpuprims primitive (the teaching rungs are in <gpuprims/ladder/...>).
#pragma once

#include <gpuprims/copy.cuh>
#include <gpuprims/gemm.cuh>
#include <gpuprims/histogram.cuh>
#include <gpuprims/reduce.cuh>
#include <gpuprims/scan.cuh>
#include <gpuprims/select.cuh>
#include <gpuprims/stencil.cuh>
#include <gpuprims/transpose.cuh>

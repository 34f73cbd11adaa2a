// Umbrella header of the histograms: block_histogram (block/histogram.cuh) and the device-wide
// histogram_even, histogram_range and histogram (device/histogram.cuh), with their tuning.
#pragma once

#include <gpuprims/block/histogram.cuh>
#include <gpuprims/device/histogram.cuh>
#include <gpuprims/tuning/histogram.cuh>

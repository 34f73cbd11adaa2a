// Umbrella header of stream compaction: select_if and the stable partition (device/select.cuh),
// built on the scans' look-back (block/lookback.cuh), with their tuning.
#pragma once

#include <gpuprims/block/lookback.cuh>
#include <gpuprims/device/select.cuh>
#include <gpuprims/tuning/select.cuh>

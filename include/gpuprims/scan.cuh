// Umbrella header of the scans: warp_inclusive_scan / warp_exclusive_scan (warp/scan.cuh),
// block_scan (block/scan.cuh), the grid-wide look-back (block/lookback.cuh), and the device-wide
// inclusive_scan / exclusive_scan (device/scan.cuh), with their tuning.
#pragma once

#include <gpuprims/block/lookback.cuh>
#include <gpuprims/block/scan.cuh>
#include <gpuprims/device/scan.cuh>
#include <gpuprims/tuning/scan.cuh>
#include <gpuprims/types.cuh>
#include <gpuprims/warp/scan.cuh>

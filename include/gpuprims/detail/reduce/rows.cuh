// gpuprims::reduce_rows's kernel and launch: a thread, a warp or a block per row, by the row's
// length; long unpadded rows go to segmented_reduce's walk.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/reduce/block_warp_shuffle.cuh>
#include <gpuprims/detail/reduce/kernels.cuh>
#include <gpuprims/detail/reduce/segmented.cuh>
#include <gpuprims/detail/reduce/tiles.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/device/workspace.cuh>
#include <gpuprims/tuning/reduce.cuh>
#include <gpuprims/warp/reduce.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <type_traits>

namespace gpuprims::detail {

enum class rows_by { thread, warp, block };

template <class Tuning>
inline constexpr int rows_block_here = Tuning::select(GPUPRIMS_TARGET_ARCH).block_threads;

// Row r: in[r * pitch, r * pitch + cols). out[r] = op(init, fold of the row), init for cols == 0.
// A thread folds its items in column order (a thread per row: the whole row; a warp or a block:
// columns lane, lane + width, ...), then the warp or block combines its threads in lane order.
template <class Tuning, rows_by By, class T, class Op, class Item>
__global__ void __launch_bounds__(rows_block_here<Tuning>)
    reduce_rows_kernel(const Item* __restrict__ in, T* __restrict__ out, std::size_t rows,
                       std::size_t cols, std::size_t pitch, T init, Op op) {
  constexpr int threads = rows_block_here<Tuning>;
  static_assert(threads % 32 == 0 && threads <= 1024,
                "reduce_rows_policy: block_threads a multiple of 32 up to 1024");
  wait_for_prior_grids();
  if constexpr (By == rows_by::thread) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
    for (std::size_t r = blockIdx.x * std::size_t{threads} + threadIdx.x; r < rows; r += stride) {
      const Item* row = in + r * pitch;
      accumulator<T, Op> acc;
      for (std::size_t c = 0; c < cols; ++c) {
        acc.add(static_cast<T>(row[c]), op);
      }
      out[r] = acc.has ? op(init, acc.value) : init;
    }
  } else if constexpr (By == rows_by::warp) {
    constexpr int warps = threads / 32;
    const int lane = static_cast<int>(threadIdx.x % 32);
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * warps;
    for (std::size_t r = blockIdx.x * std::size_t{warps} + threadIdx.x / 32; r < rows;
         r += stride) {
      const Item* row = in + r * pitch;
      accumulator<T, Op> acc;
      for (std::size_t c = lane; c < cols; c += 32) {
        acc.add(static_cast<T>(row[c]), op);
      }
      const T total = warp_reduce(acc.value, op, cols < 32 ? static_cast<int>(cols) : 32);
      if (lane == 0) {
        out[r] = op(init, total);
      }
    }
  } else {
    using block_step = block_reduce_warp_shuffle<threads, T>;
    __shared__ typename block_step::storage storage;
    const int rank = static_cast<int>(threadIdx.x);
    for (std::size_t r = blockIdx.x; r < rows; r += gridDim.x) {
      const Item* row = in + r * pitch;
      accumulator<T, Op> acc;
      for (std::size_t c = rank; c < cols; c += threads) {
        acc.add(static_cast<T>(row[c]), op);
      }
      const int valid = cols < threads ? static_cast<int>(cols) : threads;
      const T total = block_step::partial(storage, op, acc.value, valid, rank);
      if (rank == 0) {
        out[r] = op(init, total);
      }
      __syncthreads();  // the storage is reused by the next row
    }
  }
}

// The matrix launchers' argument check: `out` holds `results` values of T; with work (rows and cols
// both non-zero) `in` is non-null, the pitch at least cols, the span representable and apart
// from the output.
template <class Item, class T>
bool matrix_arguments_ok(const Item* in, std::size_t rows, std::size_t cols, std::size_t pitch,
                         const T* out, std::size_t results) {
  std::size_t out_bytes = 0, span = 0;
  if (out == nullptr || !checked_bytes<T>(results, out_bytes)) {
    return false;
  }
  if (rows == 0 || cols == 0) {
    return true;
  }
  return in != nullptr && pitch >= cols && checked_span(1, 0, rows, pitch, cols, span) &&
         span <= std::numeric_limits<std::size_t>::max() / sizeof(Item) &&
         !ranges_overlap(in, span * sizeof(Item), out, out_bytes);
}

template <class Tuning, class Item, class T, class Op>
cudaError_t launch_reduce_rows(const Item* in, T* out, std::size_t rows, std::size_t cols,
                               std::size_t pitch, T init, Op op, cudaStream_t stream) {
  check_accumulator_types<T, Op>();
  if (rows == 0) {
    return cudaSuccess;
  }
  if (!matrix_arguments_ok(in, rows, cols, pitch, out, rows)) {
    return cudaErrorInvalidValue;
  }
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const reduce_rows_policy p = Tuning::select(facts.target_arch);
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  if (pitch == cols && cols >= p.walk_min_cols) {
    using walk = segmented_reduce_tuning;
    const std::size_t bytes = segmented_workspace_bytes<T>(walk::select(facts.target_arch));
    return with_stream_workspace(stream, bytes, [&](void* workspace) {
      return launch_segmented_reduce<walk>(in, fixed_offsets{cols}, rows, out, init, op, workspace,
                                           stream);
    });
  }
  const auto threads = static_cast<std::size_t>(p.block_threads);
  const dim3 block(static_cast<unsigned int>(threads));
  if (cols <= p.thread_max_cols) {
    return launch<reduce_rows_kernel<Tuning, rows_by::thread, T, Op, Item>>(
        grid_x(ceil_div(rows, threads)), block, stream, dependent, in, out, rows, cols, pitch, init,
        op);
  }
  if (cols <= p.warp_max_cols) {
    return launch<reduce_rows_kernel<Tuning, rows_by::warp, T, Op, Item>>(
        grid_x(ceil_div(rows, threads / 32)), block, stream, dependent, in, out, rows, cols, pitch,
        init, op);
  }
  return launch<reduce_rows_kernel<Tuning, rows_by::block, T, Op, Item>>(
      grid_x(rows), block, stream, dependent, in, out, rows, cols, pitch, init, op);
}

}  // namespace gpuprims::detail

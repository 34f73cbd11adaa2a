// gpuprims::reduce_cols's kernel and passes: one result per column of a row-major matrix, read row
// by row (a warp's lanes on consecutive columns: coalesced), never transposed.
//
// The order. A pass cuts the rows into chunks of `chunk` rows (cols_plan: a function of rows, cols
// and the policy only). In a block, thread t takes column t % width of the block's `width` columns
// and row slot t / width of `slots` = block_threads / width: slot s folds rows s, s + slots, s + 2
// slots, ... of the chunk in row order; the block then folds its slots in slot order. A pass turns
// rows x cols items into chunks x cols partials; passes repeat on the partials until one chunk is
// left, and that pass folds init in first. Slots interleave rows, so Op must be commutative as
// well as associative.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/reduce/kernels.cuh>
#include <gpuprims/detail/reduce/rows.cuh>
#include <gpuprims/device/workspace.cuh>
#include <gpuprims/tuning/reduce.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims::detail {

template <class Tuning>
inline constexpr reduce_cols_policy cols_here = Tuning::select(GPUPRIMS_TARGET_ARCH);

// One pass's shape.
struct cols_plan {
  unsigned int width;      // columns per block: the least power of two >= cols, at most 32
  std::size_t col_blocks;  // blocks along x
  std::size_t chunk;       // rows per block
  std::size_t chunks;      // blocks along y (1 for rows == 0)
};

inline cols_plan plan_cols(std::size_t rows, std::size_t cols, const reduce_cols_policy& p) {
  cols_plan plan{};
  plan.width = 1;
  while (plan.width < cols && plan.width < 32) {
    plan.width *= 2;
  }
  plan.col_blocks = ceil_div(cols, plan.width);
  const std::size_t wanted =
      plan.col_blocks >= p.target_blocks ? 1 : ceil_div(p.target_blocks, plan.col_blocks);
  std::size_t chunk = ceil_div(rows, wanted);
  chunk = chunk > p.min_chunk_rows ? chunk : p.min_chunk_rows;
  chunk = chunk > 2 ? chunk : 2;  // every pass shrinks the rows
  chunk = chunk > ceil_div(rows, 65535) ? chunk : ceil_div(rows, 65535);  // gridDim.y
  plan.chunk = chunk;
  plan.chunks = rows == 0 ? 1 : ceil_div(rows, chunk);
  return plan;
}

// out[chunk_index * cols + c]: the chunk's fold of column c (the last pass: op(init, fold), init
// for no rows).
template <class Tuning, class T, class Op, class Item>
__global__ void __launch_bounds__(cols_here<Tuning>.block_threads)
    reduce_cols_kernel(const Item* __restrict__ in, std::size_t rows, std::size_t cols,
                       std::size_t pitch, unsigned int width, std::size_t chunk,
                       T* __restrict__ out, bool last, T init, Op op) {
  constexpr int threads = cols_here<Tuning>.block_threads;
  constexpr int loads = cols_here<Tuning>.loads_in_flight;
  static_assert(threads % 32 == 0 && threads <= 1024,
                "reduce_cols_policy: block_threads a multiple of 32 up to 1024");
  static_assert(loads >= 1 && loads <= 16, "reduce_cols_policy: loads_in_flight from 1 to 16");
  __shared__ T partial[threads];

  wait_for_prior_grids();
  const unsigned int t = threadIdx.x;
  const unsigned int slots = threads / width;
  const unsigned int slot = t / width;
  const std::size_t c = blockIdx.x * std::size_t{width} + t % width;
  const std::size_t r_begin = blockIdx.y * chunk;
  const std::size_t r_end = rows - r_begin > chunk ? r_begin + chunk : rows;
  T acc{};
  if (c < cols && r_begin + slot < r_end) {
    const Item* column = in + c;
    std::size_t r = r_begin + slot;
    acc = static_cast<T>(column[r * pitch]);
    r += slots;
    for (; r + std::size_t{loads - 1} * slots < r_end; r += std::size_t{loads} * slots) {
      Item x[loads];
#pragma unroll
      for (int k = 0; k < loads; ++k) {
        x[k] = column[(r + std::size_t{static_cast<unsigned int>(k)} * slots) * pitch];
      }
#pragma unroll
      for (int k = 0; k < loads; ++k) {
        acc = op(acc, static_cast<T>(x[k]));
      }
    }
    for (; r < r_end; r += slots) {
      acc = op(acc, static_cast<T>(column[r * pitch]));
    }
  }
  partial[t] = acc;
  __syncthreads();
  if (t < width && c < cols) {
    const std::size_t have = r_end > r_begin ? r_end - r_begin : 0;
    const auto used = static_cast<unsigned int>(have < slots ? have : slots);
    T total = init;
    if (used > 0) {
      total = partial[t];
      for (unsigned int s = 1; s < used; ++s) {
        total = op(total, partial[s * width + t]);
      }
      total = last ? op(init, total) : total;
    }
    out[blockIdx.y * cols + c] = total;
  }
}

template <class Tuning, class Item, class T, class Op>
cudaError_t launch_cols_pass(const Item* in, std::size_t rows, std::size_t cols, std::size_t pitch,
                             const cols_plan& plan, T* out, bool last, T init, Op op,
                             cudaStream_t stream, bool dependent) {
  const dim3 grid(static_cast<unsigned int>(plan.col_blocks),
                  static_cast<unsigned int>(plan.chunks));
  const dim3 block(static_cast<unsigned int>(cols_here<Tuning>.block_threads));
  return launch<reduce_cols_kernel<Tuning, T, Op, Item>>(grid, block, stream, dependent, in, rows,
                                                         cols, pitch, plan.width, plan.chunk, out,
                                                         last, init, op);
}

template <class Tuning, class Item, class T, class Op>
cudaError_t launch_reduce_cols(const Item* in, T* out, std::size_t rows, std::size_t cols,
                               std::size_t pitch, T init, Op op, cudaStream_t stream) {
  check_accumulator_types<T, Op>();
  if (cols == 0) {
    return cudaSuccess;
  }
  if (!matrix_arguments_ok(in, rows, cols, pitch, out, cols)) {
    return cudaErrorInvalidValue;
  }
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const reduce_cols_policy p = Tuning::select(facts.target_arch);
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  const cols_plan first = plan_cols(rows, cols, p);
  if (first.col_blocks > 0x7fffffff) {
    return cudaErrorInvalidValue;  // more than 2^36 columns
  }
  if (first.chunks == 1) {
    return launch_cols_pass<Tuning>(in, rows, cols, pitch, first, out, true, init, op, stream,
                                    dependent);
  }
  // Partials in two buffers, in turn: the first pass's chunks x cols, then the second's (every
  // later pass is smaller than the one two before it).
  const cols_plan second = plan_cols(first.chunks, cols, p);
  const std::size_t a_bytes = ceil_div(first.chunks * cols * sizeof(T), 256) * 256;
  const std::size_t b_bytes = second.chunks > 1 ? second.chunks * cols * sizeof(T) : 0;
  return with_stream_workspace(stream, a_bytes + b_bytes, [&](void* workspace) {
    T* from = static_cast<T*>(workspace);
    T* to = reinterpret_cast<T*>(static_cast<char*>(workspace) + a_bytes);
    GPUPRIMS_RETURN_IF_ERROR(launch_cols_pass<Tuning>(in, rows, cols, pitch, first, from, false,
                                                      init, op, stream, dependent));
    for (std::size_t left = first.chunks;;) {
      const cols_plan plan = plan_cols(left, cols, p);
      const bool last = plan.chunks == 1;
      GPUPRIMS_RETURN_IF_ERROR(launch_cols_pass<Tuning>(static_cast<const T*>(from), left, cols,
                                                        cols, plan, last ? out : to, last, init, op,
                                                        stream, dependent));
      if (last) {
        return cudaSuccess;
      }
      left = plan.chunks;
      T* const done = from;
      from = to;
      to = done;
    }
  });
}

}  // namespace gpuprims::detail

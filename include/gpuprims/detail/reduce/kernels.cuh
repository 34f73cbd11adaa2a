// gpuprims::reduce's passes, their workspace and their launches. Each pass cuts its input into
// tiles (tiles.cuh), one block reduces one tile to one partial; the partials are the next pass's
// input, until one tile remains, whose block writes op(init, total). The kernel reads its shape
// from the policy for the architecture it was compiled for; the host picks the same policy by the
// architecture the library's code runs as on the device.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/op_check.cuh>
#include <gpuprims/detail/reduce/block_warp_shuffle.cuh>
#include <gpuprims/detail/reduce/tiles.cuh>
#include <gpuprims/tuning/reduce.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpuprims::detail {

template <class Tuning, bool Large>
__host__ __device__ constexpr reduce_shape reduce_shape_for(int arch) {
  const reduce_policy p = Tuning::select(arch);
  return Large ? p.large : p.small;
}

template <class Tuning, bool Large>
inline constexpr reduce_shape reduce_shape_here =
    reduce_shape_for<Tuning, Large>(GPUPRIMS_TARGET_ARCH);

// One pass. With `final_pass` there is one tile and its block writes *out = op(init, total);
// otherwise the block of tile p writes out[p]. Nothing is kept between launches: no counter, no
// flag, so a workspace needs no preparation and a launch that died leaves nothing behind.
template <class Tuning, bool Large, class T, class Op, class Item>
__global__ void __launch_bounds__(reduce_shape_here<Tuning, Large>.block_threads)
    reduce_pass_kernel(const Item* __restrict__ in, std::size_t n, T* __restrict__ out, T init,
                       Op op, bool final_pass, bool early_next_pass) {
  constexpr reduce_shape shape = reduce_shape_here<Tuning, Large>;
  constexpr int threads = shape.block_threads;
  static_assert(threads % 32 == 0 && threads <= 1024,
                "reduce_shape: block_threads a multiple of 32 up to 1024");
  static_assert(shape.words_per_thread >= 1 && shape.words_per_thread <= 16,
                "reduce_shape: words_per_thread from 1 to 16");
  using block_step = block_reduce_warp_shuffle<threads, T>;
  __shared__ typename block_step::storage storage;
  wait_for_prior_grids();
  if (early_next_pass) {
    allow_next_grid();
  }
  const reduce_layout<Item> layout(in, n);
  const std::size_t tiles = reduce_tile_count(layout.words, shape);
  const int rank = static_cast<int>(threadIdx.x);
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int owners = 0;
    const T mine = reduce_tile_share<threads, shape.words_per_thread, T>(in, layout, tile, tiles,
                                                                         op, rank, owners);
    const T total = block_step::partial(storage, op, mine, owners, rank);
    if (rank == 0) {
      if (final_pass) {
        *out = op(init, total);
      } else {
        out[tile] = total;
      }
    }
    if (tile + gridDim.x < tiles) {
      __syncthreads();  // the storage is reused by the next tile
    }
  }
}

template <class T>
__global__ void write_value_kernel(T* out, T value) {
  wait_for_prior_grids();
  *out = value;
}

// Partials of a pass over n items of Item, at most (the layout's words are at most n / per word).
template <class Item>
constexpr std::size_t reduce_partials_bound(const reduce_policy& p, std::size_t n) {
  return reduce_tile_count(n / reduce_items_per_word<Item>, reduce_shape_of(p, n, sizeof(Item)));
}

inline constexpr std::size_t reduce_workspace_alignment = 256;

constexpr std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// Workspace: the first pass's partials, then the second pass's; later passes alternate between the
// two (each writes fewer partials than the pass two before). None when one tile does it all.
template <class Item, class T>
constexpr std::size_t reduce_workspace_bytes_for(const reduce_policy& p, std::size_t n) {
  const std::size_t first = reduce_partials_bound<Item>(p, n);
  if (first <= 1) {
    return 0;
  }
  const std::size_t second = reduce_partials_bound<T>(p, first);
  return round_up(first * sizeof(T), reduce_workspace_alignment) +
         (second > 1 ? second * sizeof(T) : 0);
}

// Operators with an identity (Op::identity()) serve the overloads without `init`.
template <class Op, class T, class = void>
inline constexpr bool has_identity = false;
template <class Op, class T>
inline constexpr bool has_identity<Op, T, std::void_t<decltype(Op::identity())>> =
    std::is_convertible_v<decltype(Op::identity()), T>;

// One pass over n items of Item into `partials`, or into `out` when one tile is left; gives the
// number of tiles it reduced.
template <class Tuning, class T, class Op, class Item>
cudaError_t launch_reduce_pass(const reduce_policy& p, bool dependent, const Item* in,
                               std::size_t n, T* partials, T* out, T init, Op op,
                               cudaStream_t stream, std::size_t& tiles) {
  const bool large = n * sizeof(Item) > p.small_max_bytes;
  const reduce_shape shape = large ? p.large : p.small;
  tiles = reduce_tile_count(reduce_layout<Item>(in, n).words, shape);
  std::size_t blocks = tiles;
  if (p.max_blocks != 0 && blocks > p.max_blocks) {
    blocks = p.max_blocks;
  }
  const bool final_pass = tiles == 1;
  const bool early_next_pass = dependent && !final_pass && tiles <= p.early_next_pass_max_tiles;
  T* dst = final_pass ? out : partials;
  const dim3 block(static_cast<unsigned int>(shape.block_threads));
  return large ? launch<reduce_pass_kernel<Tuning, true, T, Op, Item>>(
                     grid_x(blocks), block, stream, dependent, in, n, dst, init, op, final_pass,
                     early_next_pass)
               : launch<reduce_pass_kernel<Tuning, false, T, Op, Item>>(
                     grid_x(blocks), block, stream, dependent, in, n, dst, init, op, final_pass,
                     early_next_pass);
}

template <class Tuning, class Item, class T, class Op>
cudaError_t launch_reduce(const Item* in, T* out, std::size_t n, T init, Op op, void* workspace,
                          std::size_t workspace_bytes, cudaStream_t stream) {
  check_accumulator_types<T, Op>();
  if (out == nullptr || (n > 0 && in == nullptr)) {
    return cudaErrorInvalidValue;
  }
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const reduce_policy p = Tuning::select(facts.target_arch);
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  if (n == 0) {
    return launch<write_value_kernel<T>>(1, 1, stream, dependent, out, init);
  }
  const std::size_t needed = reduce_workspace_bytes_for<Item, T>(p, n);
  if (needed > 0 &&
      (workspace == nullptr || workspace_bytes < needed ||
       reinterpret_cast<std::uintptr_t>(workspace) % reduce_workspace_alignment != 0)) {
    return cudaErrorInvalidValue;
  }
  auto* bytes = static_cast<unsigned char*>(workspace);
  T* buffers[2] = {reinterpret_cast<T*>(bytes),
                   needed == 0 ? nullptr
                               : reinterpret_cast<T*>(
                                     bytes + round_up(reduce_partials_bound<Item>(p, n) * sizeof(T),
                                                      reduce_workspace_alignment))};
  std::size_t tiles = 0;
  GPUPRIMS_RETURN_IF_ERROR(
      launch_reduce_pass<Tuning>(p, dependent, in, n, buffers[0], out, init, op, stream, tiles));
  for (int pass = 1; tiles > 1; ++pass) {
    const T* src = buffers[(pass - 1) % 2];
    const std::size_t count = tiles;
    GPUPRIMS_RETURN_IF_ERROR(launch_reduce_pass<Tuning>(p, dependent, src, count, buffers[pass % 2],
                                                        out, init, op, stream, tiles));
  }
  return cudaSuccess;
}

}  // namespace gpuprims::detail

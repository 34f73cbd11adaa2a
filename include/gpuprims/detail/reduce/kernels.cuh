// gpuprims::reduce's passes, their workspace and their launches. Each pass cuts its input into
// tiles (tiles.cuh), one block reduces one tile to one partial; the partials are the next pass's
// input, until one tile remains, whose block writes op(init, total); where the policy allows, the
// pass before that one ends in its last block instead (one launch fewer). The kernel reads its
// shape from the policy for the architecture it was compiled for; the host picks the same policy by
// the architecture the library's code runs as on the device.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/maybe.cuh>
#include <gpuprims/detail/op_check.cuh>
#include <gpuprims/detail/reduce/block_warp_shuffle.cuh>
#include <gpuprims/detail/reduce/tiles.cuh>
#include <gpuprims/tuning/reduce.cuh>

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <atomic>
#include <chrono>
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

// A pass whose last block finishes the reduction (reduce_policy::last_block_finishes_max_tiles):
// every tile's block marks its partial ready in `marks[tile]` with this call's `mark` (odd, so
// never the cleared 0; 4-byte partials travel in the mark's word, reduce_marks_carry_partials);
// the grid's last block waits until every partial is marked, reduces them as
// the final pass would (one `small` tile, the same order and bits), writes op(init, total) to `out`
// and clears the marks. The mark is new for every call the host makes, so a workspace full of
// garbage or of an earlier call's marks is never taken for ready partials, and the clearing lets a
// graph replay the same mark. The wait relies on the blocks of a grid starting in index order (so
// the others have all started once the last one runs), as CUB's and gpuprims' decoupled look-backs
// do.
template <class T>
struct reduce_finish {
  unsigned long long* marks = nullptr;  // null: the pass writes its partials and ends
  unsigned long long mark = 0;
  T* out = nullptr;
  bool packed = false;  // the partials travel in the marks (reduce_marks_carry_partials)
};

// Accumulators of up to 4 bytes travel with their mark: one 64-bit word a tile, the partial's bits
// in the low half and 32 bits of the call's mark in the high half, stored relaxed. The finishing
// block reads partial and mark in one atomic load, so no block fences its partial before the mark
// and the last one reads no partials after the marks. The price: a slot of garbage reads as this
// call's with probability 2^-32 instead of 2^-64 (docs/reduce.md, "The workspace"). Wider
// accumulators, and passes of more partials than one word a thread of the finishing block holds
// (reduce_finish_packed), keep the partial in the partials buffer and a 64-bit mark released
// after it.
template <class T>
inline constexpr bool reduce_marks_carry_partials = reduce_vectorizable<T> && sizeof(T) <= 4;

// Whether the policy lets a pass of the large shape finish in its last block: its 4-byte partials
// travel in their marks (no barrier added to the large kernel's blocks), and the large block runs
// the final pass's small tile with its first threads.
__host__ __device__ constexpr bool reduce_large_pass_may_finish(const reduce_policy& p) {
  return p.partials_in_marks && p.large_pass_finishes_max_tiles > 0 &&
         p.large.block_threads % p.small.block_threads == 0;
}

// Threads of the finishing kernel's block for each thread of a small tile: 1 for the small
// kernel, large.block_threads / small.block_threads for the large one (0 where that does not
// divide, or where the policy never has a large pass finish).
template <class Tuning, bool Large>
__host__ __device__ constexpr int reduce_finish_spread(int arch) {
  const reduce_policy p = Tuning::select(arch);
  if (!Large) {
    return 1;
  }
  return reduce_large_pass_may_finish(p) ? p.large.block_threads / p.small.block_threads : 0;
}

// Whether a pass of this kernel can finish in its last block: passes of the small shape where T
// loads as 16-byte words; passes of the large shape where T's partials travel in their marks and
// the policy lets them (reduce_large_pass_may_finish).
template <class Tuning, bool Large, class T>
inline constexpr bool reduce_last_block_can_finish =
    Large ? reduce_marks_carry_partials<T>&& reduce_finish_spread<Tuning, Large>(
                GPUPRIMS_TARGET_ARCH) > 0
          : reduce_vectorizable<T>;

// Whether a finishing pass of `count` partials packs them (the host's choice, from the policy): a
// word of partials for each thread of the finishing kernel's block at most.
template <class T>
constexpr bool reduce_finish_packed(const reduce_policy& p, std::size_t count, bool large) {
  const int threads = large ? p.large.block_threads : p.small.block_threads;
  return p.partials_in_marks && reduce_marks_carry_partials<T> &&
         (!large || reduce_large_pass_may_finish(p)) &&
         count <= static_cast<std::size_t>(threads) * reduce_items_per_word<T>;
}

// The 32 bits of a call's mark a packed slot carries: its low half (the count steps by 2, so they
// repeat every 2^31 calls), odd, so never a cleared slot's 0.
__device__ __forceinline__ unsigned int reduce_mark32(unsigned long long mark) {
  return static_cast<unsigned int>(mark) | 1u;
}

template <class T>
__device__ __forceinline__ unsigned long long reduce_pack_partial(const T& value,
                                                                  unsigned long long mark) {
  unsigned int bits = 0;
  memcpy(&bits, &value, sizeof(T));
  return static_cast<unsigned long long>(reduce_mark32(mark)) << 32 | bits;
}

template <class T>
__device__ __forceinline__ T reduce_unpack_partial(unsigned long long slot) {
  const auto bits = static_cast<unsigned int>(slot);
  T value;
  memcpy(&value, &bits, sizeof(T));
  return value;
}

// Block `tile`'s partial made visible to the finishing block: packed with the mark in its slot, or
// written to `out` and its mark released after it.
template <bool Large, class T>
__device__ __forceinline__ void reduce_publish_partial(const reduce_finish<T>& finish,
                                                       std::size_t tile, const T& total, T* out) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> slot(finish.marks[tile]);
  if constexpr (reduce_marks_carry_partials<T>) {
    if (Large || finish.packed) {
      slot.store(reduce_pack_partial(total, finish.mark), cuda::memory_order_relaxed);
      return;
    }
  }
  out[tile] = total;
  slot.store(finish.mark, cuda::memory_order_release);
}

// Packed slots (a word of partials at most for each of the finishing block's KernelThreads,
// reduce_finish_packed): thread t reads the slots of word t, and thread t < Threads (a small
// tile's) those of the head and tail items t too, in rounds of the whole block until every slot
// carries the call's mark. Then each thread t < Threads folds what the final pass's tile would
// give it, in reduce_tile_share's order over `layout`: head item t, words t + k * Threads (the
// others' through `exchange`, (KernelThreads - Threads) words of shared memory), tail item t.
// Returns its value; `owners` as reduce_tile_share gives it.
template <int Threads, int KernelThreads, class T, class Op>
__device__ __forceinline__ T reduce_packed_share(unsigned long long* slots,
                                                 const reduce_layout<T>& layout,
                                                 std::size_t tile_words, unsigned long long mark,
                                                 Op& op, int rank, int& owners, T* exchange) {
  static_assert(KernelThreads % Threads == 0, "the block runs whole small tiles' threads");
  constexpr int per_word = static_cast<int>(reduce_items_per_word<T>);
  const unsigned int want = reduce_mark32(mark);
  const auto r = static_cast<std::size_t>(rank);
  T head{}, word[per_word], tail{};
  for (bool ready = false; !ready;) {
    bool mine = true;
    const auto take = [&](std::size_t i, T& value) {
      const unsigned long long slot =
          cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(slots[i]).load(
              cuda::memory_order_relaxed);
      mine &= static_cast<unsigned int>(slot >> 32) == want;
      value = reduce_unpack_partial<T>(slot);
    };
    if (r < layout.head) {
      take(r, head);
    }
    if (r < layout.words) {
#pragma unroll
      for (int j = 0; j < per_word; ++j) {
        take(layout.head + r * per_word + j, word[j]);
      }
    }
    if (r < layout.tail) {
      take(layout.head + layout.words * per_word + r, tail);
    }
    ready = __syncthreads_and(mine) != 0;
    if (!ready) {
      __nanosleep(64);
    }
  }
  if constexpr (KernelThreads > Threads) {
    if (r >= Threads && r < layout.words) {
#pragma unroll
      for (int j = 0; j < per_word; ++j) {
        exchange[(r - Threads) * per_word + j] = word[j];
      }
    }
    __syncthreads();
  }
  accumulator<T, Op> acc;
  if (r < Threads) {
    if (r < layout.head) {
      acc.add(head, op);
    }
    if (r < layout.words) {
#pragma unroll
      for (int j = 0; j < per_word; ++j) {
        acc.add(word[j], op);
      }
    }
#pragma unroll
    for (int k = 1; k < KernelThreads / Threads; ++k) {
      const std::size_t w = r + std::size_t{Threads} * k;
      if (w < layout.words) {
#pragma unroll
        for (int j = 0; j < per_word; ++j) {
          acc.add(exchange[(w - Threads) * per_word + j], op);
        }
      }
    }
    if (r < layout.tail) {
      acc.add(tail, op);
    }
  }
  owners = reduce_tile_owners(layout, 0, 1, Threads, tile_words);
  return acc.value;
}

// The final pass over the `count` partials at `partials` (one small tile, which the host checked),
// run by the pass's last block once every partial is marked; clears the marks after.
template <class Tuning, bool Large, class BlockStep, int Threads, class T, class Op>
__device__ void reduce_finish_in_block(typename BlockStep::storage& storage, const T* partials,
                                       std::size_t count, const T& init, Op& op,
                                       const reduce_finish<T>& finish, int rank) {
  // The final pass's tile is a small one whatever the finishing kernel: the large kernel's block
  // (as many threads or more) runs it with its first small-tile threads; the others hold no
  // partial (owners count the first ones only), which leaves the block step's order as the small
  // block's.
  constexpr reduce_shape shape = reduce_shape_here<Tuning, false>;
  static_assert(Large ? Threads >= shape.block_threads : Threads == shape.block_threads,
                "the finishing block runs one small tile");
  int owners = 0;
  T mine{};
  bool packed = false;
  if constexpr (reduce_marks_carry_partials<T>) {
    packed = Large || finish.packed;
    if (packed) {
      const reduce_layout<T> layout(partials, count);
      constexpr int spread = reduce_finish_spread<Tuning, Large>(GPUPRIMS_TARGET_ARCH);
      constexpr int exchange_items =
          (spread - 1) * shape.block_threads * static_cast<int>(reduce_items_per_word<T>);
      T* exchange = nullptr;
      if constexpr (exchange_items > 0) {
        __shared__ T words[exchange_items > 0 ? exchange_items : 1];
        exchange = words;
      }
      mine = reduce_packed_share<shape.block_threads, Threads, T>(
          finish.marks, layout, reduce_tile_words(shape), finish.mark, op, rank, owners, exchange);
    }
  }
  if constexpr (!Large) {
    if (!packed) {
      // Partials in their own buffer, each released before its 64-bit mark: rounds of the whole
      // block reading every mark (all of a thread's loads in flight at once, one round trip a
      // round) until all are there; then an acquire fence, so that the partials read below are the
      // ones the marks were released after, in every thread (the barrier orders the other threads'
      // reads after it). The first barrier also ends warp 0's reads of the storage.
      for (bool ready = false; !ready;) {
        bool marked = true;
        for (int i = rank; i < static_cast<int>(count); i += Threads) {
          marked &= cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(finish.marks[i])
                        .load(cuda::memory_order_relaxed) == finish.mark;
        }
        cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
        ready = __syncthreads_and(marked) != 0;
        if (!ready) {
          __nanosleep(64);
        }
      }
      const reduce_layout<T> layout(partials, count);
      owners = reduce_tile_owners(layout, 0, 1, shape.block_threads, reduce_tile_words(shape));
      mine = reduce_tile_share<shape.block_threads, shape.words_per_thread, T, Op, T, true>(
          partials, layout, 0, 1, op, rank, owners);
    }
  }
  const T total = BlockStep::partial(storage, op, mine, owners, rank);
  if (rank == 0) {
    *finish.out = op(init, total);
  }
  // Relaxed atomic stores: other blocks stored to these slots atomically, and packed slots were
  // read without an acquire.
  for (int i = rank; i < static_cast<int>(count); i += Threads) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(finish.marks[i])
        .store(0, cuda::memory_order_relaxed);
  }
}

// One pass. With `final_pass` there is one tile and its block writes *out = op(init, total);
// otherwise the block of tile p writes out[p] (and, with finish.marks, the last block finishes).
// With `signal_next` every block lets the stream's next kernel be scheduled as it starts (that
// kernel still waits for this one's memory).
// Nothing else is kept between launches: no counter, no flag, so a workspace needs no preparation
// and a launch that died leaves nothing that misleads the next.
template <class Tuning, bool Large, class T, class Op, class Item>
__global__ void __launch_bounds__(reduce_shape_here<Tuning, Large>.block_threads)
    reduce_pass_kernel(const Item* __restrict__ in, std::size_t n, T* __restrict__ out, T init,
                       Op op, bool final_pass, bool signal_next, reduce_finish<T> finish) {
  constexpr reduce_shape shape = reduce_shape_here<Tuning, Large>;
  constexpr int threads = shape.block_threads;
  static_assert(threads % 32 == 0 && threads <= 1024,
                "reduce_shape: block_threads a multiple of 32 up to 1024");
  static_assert(shape.words_per_thread >= 1 && shape.words_per_thread <= 16,
                "reduce_shape: words_per_thread from 1 to 16");
  using block_step = block_reduce_warp_shuffle<threads, T>;
  __shared__ typename block_step::storage storage;
  wait_for_prior_grids();
  if (signal_next) {
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
      } else if (reduce_last_block_can_finish<Tuning, Large, T> && finish.marks != nullptr) {
        reduce_publish_partial<Large>(finish, tile, total, out);
      } else {
        out[tile] = total;
      }
    }
    if (tile + gridDim.x < tiles) {
      __syncthreads();  // the storage is reused by the next tile
    }
  }
  if constexpr (reduce_last_block_can_finish<Tuning, Large, T>) {
    if (finish.marks != nullptr && blockIdx.x == gridDim.x - 1) {
      reduce_finish_in_block<Tuning, Large, block_step, threads>(storage, out, tiles, init, op,
                                                                 finish, rank);
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

// Whether the pass over the `partials` partials a pass leaves (256-byte aligned) would be the last:
// one tile of the small shape.
template <class T>
constexpr bool reduce_next_pass_is_last(const reduce_policy& p, std::size_t partials) {
  return partials * sizeof(T) <= p.small_max_bytes &&
         reduce_tile_count(partials / reduce_items_per_word<T>, p.small) == 1;
}

// Workspace: the first pass's partials at 0, then the second pass's at `second_at`; later passes
// alternate between the two (each writes fewer partials than the pass two before). Then, at
// `marks_at`, the marks of a pass whose last block finishes (one a tile: at most the policy's
// limit, one small tile's items and the first pass's tiles). `bytes` in all; none when one tile
// does it all.
struct reduce_workspace_layout {
  std::size_t second_at = 0, marks_at = 0, bytes = 0;
};

template <class Item, class T>
constexpr reduce_workspace_layout reduce_workspace_layout_for(const reduce_policy& p,
                                                              std::size_t n) {
  const std::size_t first = reduce_partials_bound<Item>(p, n);
  if (first <= 1) {
    return {};
  }
  const std::size_t second = reduce_partials_bound<T>(p, first);
  std::size_t marks = 0;
  std::size_t limit = p.last_block_finishes_max_tiles;
  if (reduce_marks_carry_partials<T> && reduce_large_pass_may_finish(p) &&
      p.large_pass_finishes_max_tiles > limit) {
    limit = p.large_pass_finishes_max_tiles;
  }
  if (limit > 0 && reduce_vectorizable<T>) {
    std::size_t most = (reduce_tile_words(p.small) + 1) * reduce_items_per_word<T>;
    most = most < limit ? most : limit;
    marks = (first < most ? first : most) * sizeof(unsigned long long);
  }
  reduce_workspace_layout layout;
  layout.second_at = round_up(first * sizeof(T), reduce_workspace_alignment);
  layout.marks_at =
      layout.second_at + round_up(second > 1 ? second * sizeof(T) : 0, reduce_workspace_alignment);
  layout.bytes = layout.marks_at + marks;
  return layout;
}

template <class Item, class T>
constexpr std::size_t reduce_workspace_bytes_for(const reduce_policy& p, std::size_t n) {
  return reduce_workspace_layout_for<Item, T>(p, n).bytes;
}

// A new mark for every call (odd, so never the cleared 0): a process-wide count from a start that
// differs from run to run, so that marks left in a workspace by another process or run do not
// match.
inline unsigned long long next_reduce_mark() {
  static std::atomic<unsigned long long> next{
      static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count()) *
      0x9E3779B97F4A7C15ull};
  return next.fetch_add(2, std::memory_order_relaxed) | 1;
}

// One pass over n items of Item into `partials`, or into `out` when one tile is left; gives the
// number of tiles it reduced, and whether it finished the reduction in its last block (with
// `marks`, where the policy and the next pass allow it).
template <class Tuning, class T, class Op, class Item>
cudaError_t launch_reduce_pass(const reduce_policy& p, bool dependent, const Item* in,
                               std::size_t n, T* partials, T* out, T init, Op op,
                               unsigned long long* marks, unsigned long long mark,
                               cudaStream_t stream, std::size_t& tiles, bool& finished) {
  const bool large = n * sizeof(Item) > p.small_max_bytes;
  const reduce_shape shape = large ? p.large : p.small;
  tiles = reduce_tile_count(reduce_layout<Item>(in, n).words, shape);
  std::size_t blocks = tiles;
  if (p.max_blocks != 0 && blocks > p.max_blocks) {
    blocks = p.max_blocks;
  }
  const bool final_pass = tiles == 1;
  // A small pass finishes up to the policy's limit; a large one only where its partials travel
  // packed (reduce_finish_packed), up to its own limit.
  finished =
      !final_pass && marks != nullptr && reduce_vectorizable<T> &&
      reduce_next_pass_is_last<T>(p, tiles) &&
      (large ? tiles <= p.large_pass_finishes_max_tiles && reduce_finish_packed<T>(p, tiles, true)
             : tiles <= p.last_block_finishes_max_tiles);
  reduce_finish<T> finish{};
  if (finished) {
    finish = {marks, mark, out, reduce_finish_packed<T>(p, tiles, large)};
  }
  // Which blocks let the next kernel be scheduled as they start (with dependent launch only): every
  // block of a pass of few tiles that writes partials, every block of the pass that writes `out`
  // where the policy says so; otherwise none (the next is scheduled once every block has exited).
  const bool writes_out = final_pass || finished;
  const bool signal_next =
      dependent && (writes_out ? p.last_pass_signals : tiles <= p.early_next_pass_max_tiles);
  T* dst = final_pass ? out : partials;
  const dim3 block(static_cast<unsigned int>(shape.block_threads));
  return large ? launch<reduce_pass_kernel<Tuning, true, T, Op, Item>>(
                     grid_x(blocks), block, stream, dependent, in, n, dst, init, op, final_pass,
                     signal_next, finish)
               : launch<reduce_pass_kernel<Tuning, false, T, Op, Item>>(
                     grid_x(blocks), block, stream, dependent, in, n, dst, init, op, final_pass,
                     signal_next, finish);
}

// The launcher on the current device, whose facts the caller has read after checking that `out`,
// and `in` where n > 0, are not null (bad arguments fail before any CUDA call).
template <class Tuning, class Item, class T, class Op>
cudaError_t launch_reduce(const device_facts& facts, const Item* in, T* out, std::size_t n, T init,
                          Op op, void* workspace, std::size_t workspace_bytes,
                          cudaStream_t stream) {
  check_accumulator_types<T, Op>();
  const reduce_policy p = Tuning::select(facts.target_arch);
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  if (n == 0) {
    return launch<write_value_kernel<T>>(1, 1, stream, dependent, out, init);
  }
  const reduce_workspace_layout layout = reduce_workspace_layout_for<Item, T>(p, n);
  const std::size_t needed = layout.bytes;
  if (needed > 0 &&
      (workspace == nullptr || workspace_bytes < needed ||
       reinterpret_cast<std::uintptr_t>(workspace) % reduce_workspace_alignment != 0)) {
    return cudaErrorInvalidValue;
  }
  auto* bytes = static_cast<unsigned char*>(workspace);
  T* buffers[2] = {reinterpret_cast<T*>(bytes),
                   needed == 0 ? nullptr : reinterpret_cast<T*>(bytes + layout.second_at)};
  unsigned long long* marks = needed > layout.marks_at
                                  ? reinterpret_cast<unsigned long long*>(bytes + layout.marks_at)
                                  : nullptr;
  const unsigned long long mark = marks == nullptr ? 0 : next_reduce_mark();
  std::size_t tiles = 0;
  bool finished = false;
  GPUPRIMS_RETURN_IF_ERROR(launch_reduce_pass<Tuning>(p, dependent, in, n, buffers[0], out, init,
                                                      op, marks, mark, stream, tiles, finished));
  for (int pass = 1; tiles > 1 && !finished; ++pass) {
    const T* src = buffers[(pass - 1) % 2];
    const std::size_t count = tiles;
    GPUPRIMS_RETURN_IF_ERROR(launch_reduce_pass<Tuning>(p, dependent, src, count, buffers[pass % 2],
                                                        out, init, op, marks, mark, stream, tiles,
                                                        finished));
  }
  return cudaSuccess;
}

template <class Tuning, class Item, class T, class Op>
cudaError_t launch_reduce(const Item* in, T* out, std::size_t n, T init, Op op, void* workspace,
                          std::size_t workspace_bytes, cudaStream_t stream) {
  if (out == nullptr || (n > 0 && in == nullptr)) {
    return cudaErrorInvalidValue;
  }
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  return launch_reduce<Tuning>(facts, in, out, n, init, op, workspace, workspace_bytes, stream);
}

}  // namespace gpuprims::detail

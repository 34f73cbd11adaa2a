// gpuprims' single-pass device scan: a block per tile, items in 16-byte words (a serial scan
// within each word, a warp scan per round of words, the rounds chained), the tile's prefix from
// gpuprims::lookback, and one write of the results. The tile waits for its prefix in registers or,
// staged, in shared memory (scan_policy::staged).
//
// The order (docs/scan.md): a warp owns 32 * W consecutive words of a tile, lane l word j * 32 + l
// of them. Item k of a word is out = B op y_k, with y_k the serial inclusive scan of the word's
// items and B = (((P op E_w) op C_j) op X_l): P the tile's prefix (lookback), E_w the fold of the
// earlier warps' totals in warp order, C_j the fold of the earlier rounds' totals in round order,
// X_l the Kogge-Stone exclusive scan of round j's word totals at lane l; absent parts drop out.
// Everything depends on n and the policy only: the input's alignment picks the load instructions,
// never the order.
#pragma once

#include <gpuprims/block/lookback.cuh>
#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/async_copy.cuh>
#include <gpuprims/detail/arch/features.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/detail/op_check.cuh>
#include <gpuprims/detail/scan/block_warp_shuffle.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/scan.cuh>
#include <gpuprims/warp/scan.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpuprims::detail {

// Items per 16-byte word of Item (1 for items that do not pack into 16 bytes).
template <class Item>
inline constexpr int scan_items_per_word = (16 % sizeof(Item) == 0 && alignof(Item) == sizeof(Item))
                                               ? static_cast<int>(16 / sizeof(Item))
                                               : 1;

// The shape of a tile for a policy and an item type.
template <class Item>
struct scan_shape {
  int threads;
  int words;            // words per lane: items_per_thread / items per word, at least 1
  int min_blocks;       // the policy's, for items and results of 4 bytes or fewer; 1 for wider ones
  int item_min_blocks;  // the same for the kernels that load item by item
  bool staged;          // the tile waits in shared memory (scan_policy::staged, small_staged)
  int before_registers;  // staged: a lane's words whose `before` waits in registers
  int prefetch_tiles;    // the tile whose input a tile asks the L2 for, this many after it
  __host__ __device__ constexpr std::size_t tile_items() const {
    return static_cast<std::size_t>(threads) * words * scan_items_per_word<Item>;
  }
};

// Whether n items take the policy's small-input shape.
__host__ __device__ constexpr bool scan_small(const scan_policy& p, std::size_t n) {
  return p.small_items_per_thread > 0 && n <= p.small_max_items;
}

// The policy counts items of 4 bytes; wider items or results take proportionally fewer (registers
// hold the results), at least one word.
template <class Item, class T>
__host__ __device__ constexpr scan_shape<Item> scan_shape_of(const scan_policy& p,
                                                             bool small = false) {
  const int per_word = scan_items_per_word<Item>;
  const int widest = static_cast<int>(sizeof(Item) > sizeof(T) ? sizeof(Item) : sizeof(T));
  const int per_thread = small ? p.small_items_per_thread : p.items_per_thread;
  const int items = widest > 4 ? per_thread * 4 / widest : per_thread;
  const int item_min_blocks =
      p.item_min_blocks_per_sm > 0 ? p.item_min_blocks_per_sm : p.min_blocks_per_sm;
  return {p.block_threads,
          items / per_word > 0 ? items / per_word : 1,
          widest > 4 ? 1 : p.min_blocks_per_sm,
          widest > 4 ? 1 : item_min_blocks,
          small ? p.small_staged : p.staged,
          small ? 0 : p.staged_before_registers,
          small ? 0 : p.prefetch_tiles};
}

// The shape n items take: the order of a scan of n items follows from it.
template <class Item, class T>
__host__ __device__ constexpr scan_shape<Item> scan_shape_for(const scan_policy& p, std::size_t n) {
  return scan_shape_of<Item, T>(p, scan_small(p, n));
}

template <class Tuning, class Item, class T, bool Small>
inline constexpr scan_shape<Item> scan_shape_here =
    scan_shape_of<Item, T>(Tuning::select(GPUPRIMS_TARGET_ARCH), Small);

// __launch_bounds__' minimum blocks per SM for a shape (Vector: its items move as 16-byte words),
// capped at what this architecture holds.
template <class Tuning, class Item, class T, bool Small, bool Vector>
inline constexpr int scan_min_blocks_here =
    arch::resident_blocks(Vector ? scan_shape_here<Tuning, Item, T, Small>.min_blocks
                                 : scan_shape_here<Tuning, Item, T, Small>.item_min_blocks,
                          scan_shape_here<Tuning, Item, T, Small>.threads, GPUPRIMS_TARGET_ARCH);

// A staged tile in shared memory: its items in their global layout (tile item i in word
// i / PerWord; words are 16 bytes, uint4, where items pack into them, else one item), and for
// BeforeWords of its Words words the fold of everything before the word in its warp (`before`, T;
// the other words keep theirs in registers), so that few registers wait for the tile's prefix.
template <class Item, int PerWord>
using scan_word = std::conditional_t<(PerWord > 1), uint4, Item>;

template <class Item, class T, int PerWord, std::size_t Words, std::size_t BeforeWords>
struct scan_stage {
  using word = scan_word<Item, PerWord>;
  static_assert(sizeof(word) == PerWord * sizeof(Item), "a word holds PerWord items");
  alignas(16) unsigned char raw[Words * sizeof(word)];
  alignas(alignof(T) > 16
              ? alignof(T)
              : 16) unsigned char raw_before[(BeforeWords > 0 ? BeforeWords : 1) * sizeof(T)];
  __device__ word* words() { return reinterpret_cast<word*>(raw); }
  __device__ T* before() { return reinterpret_cast<T*>(raw_before); }
};
template <class Item, class T, int PerWord>
struct scan_stage<Item, T, PerWord, 0, 0> {  // register tiles stage nothing
  using word = scan_word<Item, PerWord>;
};

// Loads a warp's words converted to T: round j, lane l holds items
// warp_base + (j * 32 + l) * PerWord + [0, PerWord), as 16-byte words when Vector and the warp's
// items are all in range (full), item by item otherwise, T(Item{}) past n.
template <bool Vector, int Words, int PerWord, class Item, class T>
__device__ __forceinline__ void load_warp_words(const Item* in, std::size_t warp_base,
                                                std::size_t n, bool full, int lane,
                                                T (&y)[Words][PerWord]) {
  if (Vector && full) {
    uint4 raw[Words];
    const uint4* src = reinterpret_cast<const uint4*>(in + warp_base);
#pragma unroll
    for (int j = 0; j < Words; ++j) {
      raw[j] = src[j * 32 + lane];  // every load in flight before the first is used
    }
#pragma unroll
    for (int j = 0; j < Words; ++j) {
      Item items[PerWord];
      memcpy(items, &raw[j], sizeof(items));
#pragma unroll
      for (int k = 0; k < PerWord; ++k) {
        y[j][k] = static_cast<T>(items[k]);
      }
    }
  } else {
#pragma unroll
    for (int j = 0; j < Words; ++j) {
#pragma unroll
      for (int k = 0; k < PerWord; ++k) {
        const std::size_t i = warp_base + (std::size_t{32} * j + lane) * PerWord + k;
        y[j][k] = i < n ? static_cast<T>(in[i]) : static_cast<T>(Item{});
      }
    }
  }
}

// Stores `count` values of T (count * sizeof(T) a multiple of 16 bytes, dst 16-byte aligned) as
// 16-byte words; Streaming: evict-first (st.global.cs, scan_policy::streaming_stores).
template <bool Streaming, int Count, class T>
__device__ __forceinline__ void store_words(T* dst, const T (&values)[Count]) {
  static_assert(Count * sizeof(T) % 16 == 0, "whole 16-byte words");
  uint4 words[Count * sizeof(T) / 16];
  memcpy(words, values, sizeof(words));
#pragma unroll
  for (std::size_t w = 0; w < Count * sizeof(T) / 16; ++w) {
    if constexpr (Streaming) {
      __stcs(reinterpret_cast<uint4*>(dst) + w, words[w]);
    } else {
      reinterpret_cast<uint4*>(dst)[w] = words[w];
    }
  }
}

// Copies a warp's words into its part of a staged tile: by cp.async (16-byte words) when Vector
// and the warp's items are all in range (full), item by item otherwise, Item{} past n. Each lane
// copies only the words it later reads, so the wait for its own copies is the only sync needed.
// `in_flight()` runs once the copies are issued, before that wait (after the loads where they go
// through registers).
template <bool Vector, int Words, int PerWord, class Item, class Word, class InFlight>
__device__ __forceinline__ void stage_warp_words(const Item* in, std::size_t warp_base,
                                                 std::size_t n, bool full, int lane,
                                                 Word* warp_words, InFlight&& in_flight) {
  if (Vector && full) {
    const uint4* src = reinterpret_cast<const uint4*>(in + warp_base);
#pragma unroll
    for (int j = 0; j < Words; ++j) {
      arch::async_copy(&warp_words[j * 32 + lane], &src[j * 32 + lane]);
    }
    arch::async_copy_commit();
    in_flight();
    arch::async_copy_wait<0>();
  } else if constexpr ((sizeof(Item) == 4 || sizeof(Item) == 8 || sizeof(Item) == 16) &&
                       alignof(Item) == sizeof(Item)) {
    // Item by item in the background too (no register holds an item in flight).
    Item* items = reinterpret_cast<Item*>(warp_words);
#pragma unroll
    for (int j = 0; j < Words; ++j) {
#pragma unroll
      for (int k = 0; k < PerWord; ++k) {
        const int e = (j * 32 + lane) * PerWord + k;
        const std::size_t i = warp_base + e;
        if (i < n) {
          arch::async_copy_small<sizeof(Item)>(&items[e], &in[i]);
        } else {
          items[e] = Item{};
        }
      }
    }
    arch::async_copy_commit();
    in_flight();
    arch::async_copy_wait<0>();
  } else {  // a word at a time, through registers
    Item* items = reinterpret_cast<Item*>(warp_words);
#pragma unroll 1
    for (int j = 0; j < Words; ++j) {
#pragma unroll
      for (int k = 0; k < PerWord; ++k) {
        const int e = (j * 32 + lane) * PerWord + k;
        const std::size_t i = warp_base + e;
        items[e] = i < n ? in[i] : Item{};
      }
    }
    in_flight();
  }
}

// Asks the L2 for the input of tile `tile + Ahead` of n items, a 128-byte line a thread of the
// block (nothing where Ahead is 0 or the tile's items are not 16-byte words), so that tile's loads
// find it there (scan_policy::prefetch_tiles); not for a target below `prefetch_from`
// (scan_prefetch_from). Both callers skip the grid's first wave and call it once their tile's
// loads are issued: the scan while they are in flight (stage_warp_words' `in_flight`), select_if
// once they landed. Ahead of the loads the gate's branch cost (scan_tuning, docs/scan.md).
template <bool Vector, int Threads, std::size_t TileItems, int Ahead, class Item>
__device__ __forceinline__ void prefetch_tile(const Item* in, std::size_t n, unsigned int tile,
                                              unsigned int prefetch_from) {
  if constexpr (Vector && Ahead > 0) {
    if (tile + static_cast<unsigned int>(Ahead) < prefetch_from) {  // grids of < 2^31 tiles
      return;
    }
    constexpr std::size_t line_items = 128 / sizeof(Item);
    const std::size_t first = (std::size_t{tile} + Ahead) * TileItems;
#pragma unroll 1
    for (std::size_t i = threadIdx.x * line_items; i < TileItems && first + i < n;
         i += std::size_t{Threads} * line_items) {
      prefetch_l2(in + first + i);
    }
  }
}

// A staged word's items, converted to T.
template <int PerWord, class Item, class T, class Word>
__device__ __forceinline__ void read_staged_word(const Word& word, T (&y)[PerWord]) {
  const Word raw = word;
  Item items[PerWord];
  memcpy(items, &raw, sizeof(items));
#pragma unroll
  for (int k = 0; k < PerWord; ++k) {
    y[k] = static_cast<T>(items[k]);
  }
}

// Vector: the input and output are 16-byte aligned, so whole words load and store as uint4.
// Small: the policy's small-input shape. A register tile holds its items in registers from the
// load to the store; a staged tile (scan_policy::staged) keeps them in shared memory and reads
// each word twice (once for the totals, once for the results), with the same combinations.
template <class Tuning, bool Exclusive, bool Vector, bool Small, class Item, class T, class Op>
__global__ void __launch_bounds__((scan_shape_here<Tuning, Item, T, Small>.threads),
                                  (scan_min_blocks_here<Tuning, Item, T, Small, Vector>))
    scan_kernel(const Item* in, T* out, std::size_t n, T init, Op op, lookback_tiles<T> status,
                std::size_t tiles, unsigned int prefetch_from) {
  constexpr scan_shape<Item> shape = scan_shape_here<Tuning, Item, T, Small>;
  constexpr int threads = shape.threads;
  constexpr int words = shape.words;
  constexpr int per_word = scan_items_per_word<Item>;
  constexpr int warps = threads / 32;
  constexpr std::size_t warp_items = std::size_t{32} * words * per_word;
  constexpr bool staged = shape.staged;
  static_assert(threads % 32 == 0 && threads <= 1024, "scan_policy: block_threads");
  static_assert(shape.before_registers >= 0, "scan_policy: staged_before_registers");
  // A staged tile keeps the `before` of its first reg_before words in registers, the rest in
  // shared memory.
  constexpr int reg_before =
      staged ? (shape.before_registers < words ? shape.before_registers : words) : 0;
  using stage_t = scan_stage<Item, T, per_word, staged ? std::size_t{threads} * words : 0,
                             staged ? std::size_t{threads} * (words - reg_before) : 0>;
  struct shared_t {
    stage_t stage;
    T warp_totals[warps];
    typename lookback<T, Op>::storage look;
    T prefix;
    bool has_prefix;
  };
  __shared__ shared_t s;
  wait_for_prior_grids();
  lookback<T, Op> look(s.look, status, tiles, op);
  const std::size_t tile = blockIdx.x;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = lane_id();
  const std::size_t warp_base = tile * shape.tile_items() + warp * warp_items;
  const bool full = warp_base + warp_items <= n;

  // A round: the serial scan within the lane's word, a warp scan of the words' totals, chained to
  // the rounds before by carry; returns the fold of everything before the lane's word in the warp.
  // Items past the end feed only outputs past the end (a scan never looks forward).
  const auto round = [&](T(&y)[per_word], maybe<T>& carry) {
#pragma unroll
    for (int k = 1; k < per_word; ++k) {
      y[k] = op(y[k - 1], y[k]);
    }
    const T in_round = warp_inclusive_scan(y[per_word - 1], op);
    const T round_total = shuffle_from(in_round, 31);
    const T lane_before = shuffle_up(in_round, 1);
    const maybe<T> before =
        opaque(lane > 0) ? maybe<T>{fold_after(carry, lane_before, op), true} : carry;
    carry = {fold_after(carry, round_total, op), true};
    return before;
  };
  // A register tile keeps each word's scan and `before` in registers to the end; a staged tile
  // keeps `before` in shared memory and scans the word again after the look-back (the same bits).
  // Only the first word of lane 0 has nothing before it in the warp.
  T y[staged ? 1 : words][per_word];
  maybe<T> before[staged ? 1 : words];
  maybe<T> carry{init, false};
  [[maybe_unused]] typename stage_t::word* staged_words = nullptr;
  [[maybe_unused]] T* staged_before = nullptr;
  [[maybe_unused]] T before_reg[reg_before > 0 ? reg_before : 1];
  if constexpr (staged) {
    staged_words = s.stage.words() + std::size_t{32} * words * warp;
    staged_before = s.stage.before() + std::size_t{32} * (words - reg_before) * warp;
    stage_warp_words<Vector, words, per_word>(in, warp_base, n, full, lane, staged_words, [&] {
      prefetch_tile<Vector, threads, shape.tile_items(), shape.prefetch_tiles>(in, n, blockIdx.x,
                                                                               prefetch_from);
    });
#pragma unroll
    for (int j = 0; j < words; ++j) {
      read_staged_word<per_word, Item>(staged_words[j * 32 + lane], y[0]);
      if (j < reg_before) {
        before_reg[j] = round(y[0], carry).value;
      } else {
        staged_before[(j - reg_before) * 32 + lane] = round(y[0], carry).value;
      }
    }
  } else {
    load_warp_words<Vector>(in, warp_base, n, full, lane, y);
    prefetch_tile<Vector, threads, shape.tile_items(), shape.prefetch_tiles>(in, n, blockIdx.x,
                                                                             prefetch_from);
#pragma unroll
    for (int j = 0; j < words; ++j) {
      before[j] = round(y[j], carry);
    }
  }
  if (lane == 0) {
    s.warp_totals[warp] = carry.value;
  }
  __syncthreads();

  if (warp == 0) {
    T aggregate = s.warp_totals[0];
#pragma unroll
    for (int w = 1; w < warps; ++w) {
      aggregate = op(aggregate, s.warp_totals[w]);
    }
    T prefix = init;
    bool has = true;
    if constexpr (Exclusive) {
      prefix = look.exclusive_prefix_with_init(tile, aggregate, init);
    } else {
      has = look.exclusive_prefix(tile, aggregate, prefix);
    }
    if (lane == 0) {
      s.prefix = prefix;
      s.has_prefix = has;
    }
  }
  __syncthreads();
  maybe<T> head{s.prefix, s.has_prefix};
  for (int w = 0; w < warp; ++w) {
    head = {fold_after(head, s.warp_totals[w], op), true};
  }

#pragma unroll
  for (int j = 0; j < words; ++j) {
    T w[per_word];
    maybe<T> before_word;
    if constexpr (staged) {  // the word again, scanned again
      read_staged_word<per_word, Item>(staged_words[j * 32 + lane], w);
#pragma unroll
      for (int k = 1; k < per_word; ++k) {
        w[k] = op(w[k - 1], w[k]);
      }
      before_word = {j < reg_before ? before_reg[j] : staged_before[(j - reg_before) * 32 + lane],
                     j > 0 || opaque(lane > 0)};
    } else {
#pragma unroll
      for (int k = 0; k < per_word; ++k) {
        w[k] = y[j][k];
      }
      before_word = before[j];
    }
    const maybe<T> b = fold_maybe(head, before_word, op);
    T result[per_word];
#pragma unroll
    for (int k = 0; k < per_word; ++k) {
      if constexpr (Exclusive) {  // b is present: init comes first
        result[k] = k == 0 ? b.value : op(b.value, w[k - 1]);
      } else {
        result[k] = fold_after(b, w[k], op);
      }
    }
    const std::size_t first = warp_base + (std::size_t{32} * j + lane) * per_word;
    if constexpr (Vector && per_word * sizeof(T) % 16 == 0) {
      if (full) {
        store_words<!Small && Tuning::select(GPUPRIMS_TARGET_ARCH).streaming_stores>(out + first,
                                                                                     result);
        continue;
      }
    }
#pragma unroll
    for (int k = 0; k < per_word; ++k) {
      if (first + k < n) {
        out[first + k] = result[k];
      }
    }
  }
  look.finish();
}

template <class Tuning, class Item, class T>
std::size_t scan_tiles(std::size_t n, int target_arch) {
  return ceil_div(n, scan_shape_for<Item, T>(Tuning::select(target_arch), n).tile_items());
}

// The most tiles a scan of up to n items launches (a shorter input may take smaller tiles).
template <class Tuning, class Item, class T>
std::size_t scan_most_tiles(std::size_t n, int target_arch) {
  const scan_policy p = Tuning::select(target_arch);
  const std::size_t small_n = n < p.small_max_items ? n : p.small_max_items;
  const std::size_t small = scan_tiles<Tuning, Item, T>(small_n, target_arch);
  const std::size_t large = scan_tiles<Tuning, Item, T>(n, target_arch);
  return small > large ? small : large;
}

// The first tile that tiles prefetch for (large shape, 16-byte words): the first past the grid's
// first wave, the tiles resident at once (every multiprocessor holding the policy's minimum of
// blocks: exact where that is what fits, as in the library's staged policies, otherwise fewer);
// 0 with scan_policy::prefetch_first_wave.
template <class Item, class T>
unsigned int scan_prefetch_from(const scan_policy& p, const device_facts& facts) {
  if (p.prefetch_first_wave) {
    return 0;
  }
  const scan_shape<Item> shape = scan_shape_of<Item, T>(p);
  return static_cast<unsigned int>(facts.multiprocessors) *
         static_cast<unsigned int>(
             arch::resident_blocks(shape.min_blocks, shape.threads, facts.target_arch));
}

// In place (in == out, same item size) or disjoint; anything else rejected.
template <class Item, class T>
bool scan_arguments_ok(const Item* in, const T* out, std::size_t n) {
  if (out == nullptr || (n > 0 && in == nullptr)) {
    return false;
  }
  std::size_t in_bytes = 0, out_bytes = 0;
  if (!checked_bytes<Item>(n, in_bytes) || !checked_bytes<T>(n, out_bytes)) {
    return false;
  }
  if (static_cast<const void*>(in) == static_cast<const void*>(out)) {
    return sizeof(Item) == sizeof(T) || n == 0;
  }
  return n == 0 || !ranges_overlap(in, in_bytes, out, out_bytes);
}

inline constexpr std::size_t scan_max_tiles = 0x7fffffff;

template <class Tuning, bool Exclusive, class Item, class T, class Op>
cudaError_t launch_scan(const Item* in, T* out, std::size_t n, T init, Op op, void* workspace,
                        std::size_t workspace_bytes, cudaStream_t stream) {
  check_accumulator_types<T, Op>();
  static_assert(std::is_convertible_v<Item, T>, "items convert to the output type on load");
  if (!scan_arguments_ok(in, out, n)) {
    return cudaErrorInvalidValue;
  }
  if (n == 0) {
    return cudaSuccess;
  }
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const scan_policy p = Tuning::select(facts.target_arch);
  const std::size_t tiles = scan_tiles<Tuning, Item, T>(n, facts.target_arch);
  if (tiles > scan_max_tiles || workspace == nullptr ||
      workspace_bytes < lookback_workspace_bytes<T>(tiles) ||
      reinterpret_cast<std::uintptr_t>(workspace) % 16 != 0) {
    return cudaErrorInvalidValue;
  }
  const bool vector = scan_items_per_word<Item> > 1 &&
                      reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                      reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  const dim3 grid(static_cast<unsigned int>(tiles));
  const dim3 block(static_cast<unsigned int>(p.block_threads));
  const lookback_tiles<T> status{workspace};
  const unsigned int prefetch_from = scan_prefetch_from<Item, T>(p, facts);
  const auto go = [&](auto kernel_small) {
    constexpr bool small = decltype(kernel_small)::value;
    return vector ? launch<scan_kernel<Tuning, Exclusive, true, small, Item, T, Op>>(
                        grid, block, stream, dependent, in, out, n, init, op, status, tiles,
                        prefetch_from)
                  : launch<scan_kernel<Tuning, Exclusive, false, small, Item, T, Op>>(
                        grid, block, stream, dependent, in, out, n, init, op, status, tiles,
                        prefetch_from);
  };
  return scan_small(p, n) ? go(std::true_type{}) : go(std::false_type{});
}

}  // namespace gpuprims::detail

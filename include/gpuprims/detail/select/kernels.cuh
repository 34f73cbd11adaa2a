// gpuprims' stream compaction in one pass: a block per tile (the scan's 16-byte words, lane l word
// j * 32 + l of its warp), a flag per item from the predicate, each kept item's rank in the tile
// from a warp scan of the words' counts, the tile's place in the output from gpuprims::lookback
// over the counts, and the items compacted in shared memory so the output is written in order by
// consecutive threads. A register tile holds its items in registers and compacts the whole tile
// while warp 0 waits for the place; a staged tile (scan_policy::staged) is copied into shared
// memory first, waits there holding only its flags and counts, and each warp then compacts and
// writes its rounds one by one, each in the round's own part of the tile.
#pragma once

#include <gpuprims/block/lookback.cuh>
#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/scan/kernels.cuh>
#include <gpuprims/detail/validate.cuh>
#include <gpuprims/tuning/select.cuh>
#include <gpuprims/types.cuh>
#include <gpuprims/warp/scan.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace gpuprims::detail {

// The policy's blocks an SM, for items of 4 bytes (and the scan's rule for wider ones); narrower
// items unpack 8 or 16 a word into registers of their own, so their kernels are not capped.
template <class Tuning, class Item, bool Small, bool Vector>
inline constexpr int select_min_blocks_here =
    sizeof(Item) < 4 ? 1 : scan_min_blocks_here<Tuning, Item, Item, Small, Vector>;

// Selected items go to `selected` in input order; with Partition the others go to `rejected`, in
// input order too. Offset: the look-back's count type (32 bits, or 64 for 2^32 items and more).
template <class Tuning, bool Vector, bool Small, bool Partition, class Offset, class Item,
          class Pred, class Count>
__global__ void __launch_bounds__((scan_shape_here<Tuning, Item, Item, Small>.threads),
                                  (select_min_blocks_here<Tuning, Item, Small, Vector>))
    select_kernel(const Item* in, Item* selected, Item* rejected, Count* count, std::size_t n,
                  Pred pred, lookback_tiles<Offset> status, std::size_t tiles, bool in_place,
                  unsigned int prefetch_from) {
  constexpr scan_shape<Item> shape = scan_shape_here<Tuning, Item, Item, Small>;
  constexpr int threads = shape.threads;
  constexpr int words = shape.words;
  constexpr int per_word = scan_items_per_word<Item>;
  constexpr int warps = threads / 32;
  constexpr std::size_t warp_items = std::size_t{32} * words * per_word;
  constexpr std::size_t tile_items = shape.tile_items();
  constexpr bool staged = shape.staged;
  static_assert(threads % 32 == 0 && threads <= 1024, "scan_policy: block_threads");
  static_assert(per_word <= 16, "16-byte words");
  constexpr int flag_words = (words * per_word + 31) / 32;
  // A staged tile's flags wait in shared memory where they take more than one register.
  constexpr bool flags_shared = staged && flag_words > 1;
  struct shared_t {
    // Staged: the tile's words as loaded. Otherwise the compacted tile: kept first, then the
    // others.
    alignas(alignof(Item) > 16 ? alignof(Item) : 16) unsigned char items[tile_items * sizeof(Item)];
    unsigned int round_first[warps][words];  // kept items before each round in its warp
    unsigned int warp_counts[warps];
    typename lookback<Offset, plus<Offset>>::storage look;
    Offset prefix;
    unsigned int flags[flags_shared ? flag_words * threads : 1];  // the lanes' flag words
  };
  __shared__ shared_t s;
  wait_for_prior_grids();
  lookback<Offset, plus<Offset>> look(s.look, status, tiles);
  const std::size_t tile = blockIdx.x;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = lane_id();
  const std::size_t tile_base = tile * tile_items;
  const std::size_t warp_base = tile_base + warp * warp_items;
  const bool full = warp_base + warp_items <= n;

  // A lane's flags, packed so that little is held while the tile waits (item k of its word j: bit
  // j * per_word + k; in shared memory while a staged tile waits, where they take more than one
  // word); the kept items before each round of a warp go to shared memory. Ranks within a round
  // come from one ballot a position in the word, when the items move.
  unsigned int flag_bits[flag_words] = {};
  const auto flags_of = [&](int j) {
    const unsigned int bits = flags_shared ? s.flags[j * per_word / 32 * threads + threadIdx.x]
                                           : flag_bits[j * per_word / 32];
    return bits >> (j * per_word % 32) & ((1u << per_word) - 1);
  };
  // The round's kept items in the lanes before this one, and in the whole round.
  const auto round_ranks = [&](unsigned int f, unsigned int& before, unsigned int& total) {
    const unsigned int lower = (1u << lane) - 1;
    before = 0;
    total = 0;
#pragma unroll
    for (int k = 0; k < per_word; ++k) {
      const unsigned int ballot = __ballot_sync(full_warp, (f >> k & 1u) != 0);
      before += __popc(ballot & lower);
      total += __popc(ballot);
    }
  };
  // A register tile keeps each word's rank in its round from the count (it moves its items while
  // warp 0 waits for the tile's place); a staged tile takes the ballots again after the wait.
  unsigned int ranks[staged ? 1 : words];
  // The kept items before round j, kept by lane j % 32 and stored once every round is counted (no
  // lane branches off between the rounds' ballots).
  unsigned int round_first[(words + 31) / 32] = {};
  unsigned int carry = 0;
  const auto count_round = [&](int j, const Item(&w)[per_word]) {
    unsigned int f = 0;
#pragma unroll
    for (int k = 0; k < per_word; ++k) {
      const std::size_t i = warp_base + (std::size_t{32} * j + lane) * per_word + k;
      if ((full || i < n) && pred(w[k])) {
        f |= 1u << k;
      }
    }
    flag_bits[j * per_word / 32] |= f << (j * per_word % 32);
    const unsigned int mine = __popc(f);
    const unsigned int in_round = warp_inclusive_scan(mine, plus<unsigned int>{});
    const unsigned int total = shuffle_from(in_round, 31);
    if constexpr (!staged) {
      ranks[j] = in_round - mine;
    }
    round_first[j / 32] = lane == j % 32 ? carry : round_first[j / 32];
    carry += total;
  };
  // The tile's kept items, and those of the warps before this one.
  const auto tile_counts = [&](unsigned int& kept, unsigned int& warp_offset) {
    kept = 0;
    warp_offset = 0;
#pragma unroll
    for (int w = 0; w < warps; ++w) {
      warp_offset += w < warp ? s.warp_counts[w] : 0;
      kept += s.warp_counts[w];
    }
  };

  Item x[staged ? 1 : words][per_word];
  using word = scan_word<Item, per_word>;
  word* const warp_words = reinterpret_cast<word*>(s.items) + std::size_t{32} * words * warp;
  if constexpr (staged) {
    // The prefetch once the tile's loads have landed: issued while they were in flight (as the
    // scan does), partition took 1.3-2.4% longer at 2^28 and 2^30 and select_if 1-5% at 2^22 and
    // 2^23 (H100, 2026-11-28).
    stage_warp_words<Vector, words, per_word>(in, warp_base, n, full, lane, warp_words, [] {});
    prefetch_tile<Vector, threads, tile_items, shape.prefetch_tiles>(in, n, blockIdx.x,
                                                                     prefetch_from);
#pragma unroll
    for (int j = 0; j < words; ++j) {
      read_staged_word<per_word, Item>(warp_words[j * 32 + lane], x[0]);
      count_round(j, x[0]);
    }
  } else {
    load_warp_words<Vector>(in, warp_base, n, full, lane, x);
    prefetch_tile<Vector, threads, tile_items, shape.prefetch_tiles>(in, n, blockIdx.x,
                                                                     prefetch_from);
#pragma unroll
    for (int j = 0; j < words; ++j) {
      count_round(j, x[j]);
    }
  }
#pragma unroll
  for (int r = 0; r < (words + 31) / 32; ++r) {
    if (r * 32 + lane < words) {
      s.round_first[warp][r * 32 + lane] = round_first[r];
    }
  }
  if constexpr (flags_shared) {
#pragma unroll
    for (int r = 0; r < flag_words; ++r) {
      s.flags[r * threads + threadIdx.x] = flag_bits[r];
    }
  }
  if (lane == 0) {
    s.warp_counts[warp] = carry;
  }
  __syncthreads();
  unsigned int kept = 0, warp_offset = 0;
  tile_counts(kept, warp_offset);
  if (warp == 0) {  // the tile's place first: the tiles after it wait for its count
    if (in_place) {
      // The block's loads (ordered by the barrier above) come before its count is published: a
      // later tile's writes over this tile's items wait for that count (release, cumulative).
      __threadfence();
    }
    const Offset prefix = look.exclusive_prefix_with_init(tile, Offset{kept}, Offset{0});
    if (in_place) {
      __threadfence();  // and this tile's writes come after the counts it read (acquire)
    }
    if (lane == 0) {
      s.prefix = prefix;
    }
  }
  if constexpr (staged) {
    __syncthreads();
    tile_counts(kept, warp_offset);  // again: nothing held across the wait
    const Offset prefix = s.prefix;
    // Round by round: the round's items move to the front of its own part of the tile (kept ones,
    // then the others of a partition), then the warp writes them out.
#pragma unroll
    for (int j = 0; j < words; ++j) {
      read_staged_word<per_word, Item>(warp_words[j * 32 + lane], x[0]);
      const unsigned int f = flags_of(j);
      unsigned int before = 0, count_j = 0;
      round_ranks(f, before, count_j);
      Item* const round = reinterpret_cast<Item*>(warp_words + j * 32);
      const std::size_t round_base = warp_base + std::size_t{32} * j * per_word;
      __syncwarp();  // every lane holds its word before the round's items move
#pragma unroll
      for (int k = 0; k < per_word; ++k) {
        const unsigned int rank = before + __popc(f & ((1u << k) - 1));
        const auto at = static_cast<unsigned int>(lane * per_word + k);
        if (f >> k & 1u) {
          round[rank] = x[0][k];
        } else if (Partition && (full || round_base + at < n)) {
          round[count_j + at - rank] = x[0][k];  // `at - rank` others come before it
        }
      }
      __syncwarp();
      const std::size_t kept_before = prefix + warp_offset + s.round_first[warp][j];
#pragma unroll 1
      for (unsigned int i = lane; i < count_j; i += 32) {
        selected[kept_before + i] = round[i];
      }
      if constexpr (Partition) {
        const std::size_t left = round_base < n ? n - round_base : 0;
        const std::size_t valid = left < 32u * per_word ? left : 32u * per_word;
#pragma unroll 1
        for (std::size_t i = count_j + lane; i < valid; i += 32) {
          rejected[round_base - kept_before + (i - count_j)] = round[i];
        }
      }
    }
  } else {
    // Into shared memory: kept items at their rank, the others (Partition) after every kept one.
    Item* const compacted = reinterpret_cast<Item*>(s.items);
#pragma unroll
    for (int j = 0; j < words; ++j) {
      const unsigned int f = flags_of(j);
      const unsigned int first = warp_offset + s.round_first[warp][j] + ranks[j];
#pragma unroll
      for (int k = 0; k < per_word; ++k) {
        const unsigned int rank = first + __popc(f & ((1u << k) - 1));
        const auto at = static_cast<unsigned int>(warp_base - tile_base) +
                        (32u * j + static_cast<unsigned int>(lane)) * per_word + k;
        if (f >> k & 1u) {
          compacted[rank] = x[j][k];
        } else if (Partition && (full || tile_base + at < n)) {
          compacted[kept + at - rank] = x[j][k];  // `at - rank` others come before it
        }
      }
    }
    __syncthreads();
    const Offset prefix = s.prefix;
    for (unsigned int i = threadIdx.x; i < kept; i += threads) {
      selected[prefix + i] = compacted[i];
    }
    if constexpr (Partition) {
      const std::size_t valid = n - tile_base < tile_items ? n - tile_base : tile_items;
      const std::size_t others_before = tile_base - prefix;
      for (std::size_t i = kept + threadIdx.x; i < valid; i += threads) {
        rejected[others_before + (i - kept)] = compacted[i];
      }
    }
  }
  if (tile == tiles - 1 && threadIdx.x == 0) {
    *count = static_cast<Count>(s.prefix + kept);
  }
  look.finish();
}

template <class Tuning, class Item>
std::size_t select_tiles(std::size_t n, int target_arch) {
  return scan_tiles<Tuning, Item, Item>(n, target_arch);
}

// A look-back of 64-bit counts: from 2^32 items on, or whenever the workspace is as large as 64-bit
// records of 2^32 items need (so that one workspace always holds one record layout, whatever n).
template <class Tuning, class Item>
std::size_t select_wide_bytes(int target_arch) {
  return lookback_workspace_bytes<unsigned long long>(
      scan_most_tiles<Tuning, Item, Item>(std::size_t{1} << 32, target_arch));
}

template <class Tuning, class Item>
std::size_t select_workspace_size(std::size_t n, int target_arch) {
  const std::size_t tiles = scan_most_tiles<Tuning, Item, Item>(n, target_arch);
  return n >> 32 != 0 ? lookback_workspace_bytes<unsigned long long>(tiles)
                      : lookback_workspace_bytes<unsigned int>(tiles);
}

// Input, outputs and count pairwise disjoint, except in place (selected == in) when allowed.
template <class Item, class Count>
bool select_arguments_ok(const Item* in, const Item* selected, const Item* rejected,
                         const Count* count, std::size_t n, bool partition) {
  std::size_t bytes = 0;
  if (count == nullptr || !checked_bytes<Item>(n, bytes) ||
      n > static_cast<std::size_t>(std::numeric_limits<Count>::max())) {
    return false;
  }
  if (n == 0) {
    return true;
  }
  if (in == nullptr || selected == nullptr || (partition && rejected == nullptr)) {
    return false;
  }
  const bool in_place = !partition && selected == in;
  return (in_place || !ranges_overlap(in, bytes, selected, bytes)) &&
         !ranges_overlap(count, sizeof(Count), in, bytes) &&
         !ranges_overlap(count, sizeof(Count), selected, bytes) &&
         (!partition || (!ranges_overlap(rejected, bytes, in, bytes) &&
                         !ranges_overlap(rejected, bytes, selected, bytes) &&
                         !ranges_overlap(count, sizeof(Count), rejected, bytes)));
}

template <class Tuning, bool Partition, class Item, class Pred, class Count>
cudaError_t launch_select(const Item* in, Item* selected, Item* rejected, Count* count,
                          std::size_t n, Pred pred, void* workspace, std::size_t workspace_bytes,
                          cudaStream_t stream) {
  static_assert(std::is_integral_v<Count> && !std::is_same_v<Count, bool>,
                "the count is written to an integer");
  static_assert(std::is_trivially_copyable_v<Item>, "items move through registers and memory");
  static_assert(
      std::is_convertible_v<decltype(std::declval<Pred&>()(std::declval<const Item&>())), bool>,
      "the predicate takes an item and returns bool");
  if (!select_arguments_ok(in, selected, rejected, count, n, Partition)) {
    return cudaErrorInvalidValue;
  }
  if (n == 0) {
    return cudaMemsetAsync(count, 0, sizeof(Count), stream);
  }
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const scan_policy p = Tuning::select(facts.target_arch);
  const std::size_t tiles = select_tiles<Tuning, Item>(n, facts.target_arch);
  const bool wide =
      n >> 32 != 0 || workspace_bytes >= select_wide_bytes<Tuning, Item>(facts.target_arch);
  const std::size_t needed = wide ? lookback_workspace_bytes<unsigned long long>(tiles)
                                  : lookback_workspace_bytes<unsigned int>(tiles);
  if (tiles > scan_max_tiles || workspace == nullptr || workspace_bytes < needed ||
      reinterpret_cast<std::uintptr_t>(workspace) % 16 != 0) {
    return cudaErrorInvalidValue;
  }
  const bool vector =
      scan_items_per_word<Item> > 1 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  const bool in_place = static_cast<const Item*>(selected) == in;
  const unsigned int prefetch_from = scan_prefetch_from<Item, Item>(p, facts);
  const dim3 grid(static_cast<unsigned int>(tiles));
  const dim3 block(static_cast<unsigned int>(p.block_threads));
  const auto go = [&](auto vector_tag, auto small_tag, auto offset) {
    using offset_t = decltype(offset);
    return launch<select_kernel<Tuning, decltype(vector_tag)::value, decltype(small_tag)::value,
                                Partition, offset_t, Item, Pred, Count>>(
        grid, block, stream, dependent, in, selected, rejected, count, n, pred,
        lookback_tiles<offset_t>{workspace}, tiles, in_place, prefetch_from);
  };
  const auto with_offset = [&](auto vector_tag, auto small_tag) {
    return wide ? go(vector_tag, small_tag, 0ull) : go(vector_tag, small_tag, 0u);
  };
  const auto with_small = [&](auto vector_tag) {
    return scan_small(p, n) ? with_offset(vector_tag, std::true_type{})
                            : with_offset(vector_tag, std::false_type{});
  };
  return vector ? with_small(std::true_type{}) : with_small(std::false_type{});
}

}  // namespace gpuprims::detail

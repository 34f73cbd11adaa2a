// gpuprims::segmented_reduce's kernels: a merge path over the segments' ends and the items, cut
// into equal ranges, one per warp of the grid (a walker); the partials of segments that cross
// ranges meet in one more block.
//
// The sequence. Segment j holds items [offsets[j], offsets[j + 1]) (relative to offsets[0]); merge
// the n items with the S segment ends so that end j comes right after segment j's last item (and
// before the next item): end j is step p_j = (offsets[j + 1] - offsets[0]) + j of S + n steps. A
// walker in state s (segment s open) at step d either closes s (d == p_s) or adds item d - s. Every
// step is one unit of work, whatever the lengths: a million empty segments and one of 2^24 items
// cost what their steps cost, and empty segments cost a step each.
//
// The order. Walker w (of W = blocks * block_threads / 32) walks steps [w * R, (w + 1) * R)
// (R: S + n over W, rounded up; where n is at least S groups, then up to an odd multiple of the
// policy's range_unit). Its items come in groups of 32 x words_per_lane 16-byte words aligned to
// the input's 16-byte boundaries (lane l holds the l-th run of words_per_lane words). Within a
// segment, lane l folds the items of its words onto its accumulator: in a group where no segment
// ends and all its items are the walker's, as a tree of neighbours (pairs, then pairs of pairs),
// else in address order. A group in which at most `few_ends` (a policy field) segments end closes
// them one after the other: for each end, every lane adds its items before it to its fold (where Op
// has an identity, those items as a tree of neighbours, the lane's other items replaced by the
// identity, -0 for a floating sum; else one by one in address order), and the folds join the
// segment's value in a fixed tree (lane 0 takes lane 16, then 8, 4, 2, 1); the lane's items after
// the last end start its next fold the same way. A group with more ends first joins the lanes'
// folds so far in that tree, then the runs of the group join in lane order (a segmented warp scan).
// Lanes interleave, so Op must commute. A segment that crosses a range boundary leaves a record at
// each boundary (the head and the tail of each walker's range); the fixup block walks the records
// in order. All of it depends on the offsets, the input's alignment and the policy only: the bits
// repeat on every GPU.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/detail/maybe.cuh>
#include <gpuprims/detail/reduce/block_segmented.cuh>
#include <gpuprims/detail/reduce/tiles.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/tuning/reduce.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpuprims::detail {

// Segments of `size` items each, back to back: the offsets of the batched and row forms.
struct fixed_offsets {
  std::size_t size;
  __host__ __device__ std::size_t operator[](std::size_t j) const { return j * size; }
};

template <class T>
__device__ __forceinline__ maybe<T> nothing() {
  maybe<T> m{};  // the value too: it is stored and loaded with the flag
  return m;
}

// What the blocks leave for the fixup at each end of their ranges: the segment open there (bit 63:
// whether the block reduced any of its items) and that part. Two arrays, so that no byte is
// padding: every byte stored is written, every byte loaded was stored.
template <class T>
struct segment_records {
  static constexpr std::uint64_t has_part = std::uint64_t{1} << 63;
  std::uint64_t* keys;
  T* parts;

  __device__ __forceinline__ void put(std::size_t i, std::uint64_t key, const maybe<T>& part) {
    keys[i] = key | (part.has ? has_part : 0);
    parts[i] = part.value;
  }
  __device__ __forceinline__ std::uint64_t key(std::size_t i) const { return keys[i] & ~has_part; }
  __device__ __forceinline__ maybe<T> part(std::size_t i) const {
    return {parts[i], (keys[i] & has_part) != 0};
  }
};

// One thread's runs, in order: the first one to close (possibly begun before this thread: it
// still needs what comes before), complete runs (straight to `finish`), and the run open at the
// thread's end.
template <class T, class Op>
struct thread_runs {
  std::uint64_t first_key = 0;
  bool closed = false;
  maybe<T> first = nothing<T>();
  maybe<T> acc = nothing<T>();

  __device__ __forceinline__ void add(const T& x, Op& op) {
    acc.value = acc.has ? op(acc.value, x) : x;
    acc.has = true;
  }
  // Closes the open run, which is segment `key`.
  template <class Finish>
  __device__ __forceinline__ void close(std::uint64_t key, Finish& finish) {
    close_with(key, acc, finish);
    acc = nothing<T>();
  }
  // The same for a run the caller folded itself.
  template <class Finish>
  __device__ __forceinline__ void close_with(std::uint64_t key, const maybe<T>& run,
                                             Finish& finish) {
    if (!closed) {
      closed = true;
      first_key = key;
      first = run;
    } else {
      finish(key, run);
    }
  }
};

// Joins the threads' runs across the block, in rank order, and with `carry` (the part of the run
// open when the chunk of records began: the fixup's). Returns what comes before this thread's
// first run (carry included); leaves in `carry`, in every thread, the part of the run open at the
// chunk's end. The scan's two
// barriers are the only ones: its storage alternates between two buffers (`phase`), so the next
// join never writes what this one still reads.
template <int Threads, class T, class Op>
struct runs_across_block {
  using scan = block_segmented_scan<Threads, maybe<T>>;
  struct storage {
    typename scan::storage buffers[2];
  };

  __device__ static maybe<T> join(storage& s, int& phase, maybe_op<Op>& mop,
                                  const thread_runs<T, Op>& runs, maybe<T>& carry, int rank) {
    typename scan::storage& st = s.buffers[phase];
    phase ^= 1;
    // What this thread passes on: the run open at its end (its whole walk where nothing closed).
    bool seen = runs.closed;
    const maybe<T> upto = scan::inclusive(st, mop, runs.acc, seen, rank);
    // The same for the thread before (the warp before's last lane: its scanned warp total) and for
    // the block's last thread.
    maybe<T> previous = shuffle_up(upto, 1);
    bool previous_seen = __shfl_up_sync(full_warp, seen ? 1 : 0, 1) != 0;
    maybe<T> last;
    bool last_seen;
    if constexpr (scan::warps > 1) {
      if (lane_id() == 0 && rank > 0) {
        previous = st.warp_value[rank / 32 - 1];
        previous_seen = st.warp_seen[rank / 32 - 1];
      }
      last = st.warp_value[scan::warps - 1];
      last_seen = st.warp_seen[scan::warps - 1];
    } else {
      last = shuffle_from(upto, 31);
      last_seen = __shfl_sync(full_warp, seen ? 1 : 0, 31) != 0;
      __syncwarp();  // a one-warp block's only step between this chunk's reads and the next's
                     // writes
    }
    const maybe<T> before = rank == 0 ? carry : (previous_seen ? previous : mop(carry, previous));
    carry = last_seen ? last : mop(carry, last);
    return before;
  }
};

template <class T, class Op>
struct segment_writer {
  T* out;
  T init;
  Op op;
  std::size_t segments;
  __device__ __forceinline__ void operator()(std::uint64_t key, const maybe<T>& part) {
    if (key < segments) {
      out[key] = part.has ? op(init, part.value) : init;
    }
  }
};

template <class Tuning>
inline constexpr segmented_reduce_policy segmented_here = Tuning::select(GPUPRIMS_TARGET_ARCH);

// Two searches at once, 16 lanes each: the smallest j in [a0, b0) with step_of(j) >= d0 (b0 if
// none) and the same for (a1, b1, d1), for step_of increasing in j. 16 probes a round (log16 of
// the range); every lane returns both answers.
template <class StepOf>
__device__ void warp_search_two(std::size_t a0, std::size_t b0, std::size_t d0, std::size_t a1,
                                std::size_t b1, std::size_t d1, StepOf step_of, std::size_t& r0,
                                std::size_t& r1) {
  const int lane = lane_id();
  const int half = lane / 16;
  const auto sub = static_cast<std::size_t>(lane % 16);
  std::size_t a = half == 0 ? a0 : a1;
  std::size_t b = half == 0 ? b0 : b1;
  const std::size_t d = half == 0 ? d0 : d1;
  while (__ballot_sync(full_warp, a < b) != 0) {
    const bool active = a < b;
    const std::size_t stride = active ? (b - a + 15) / 16 : 0;
    const std::size_t j = a + (sub + 1) * stride - 1;
    const bool hit = active && (j >= b || step_of(j) >= d);
    const unsigned int mine = (__ballot_sync(full_warp, hit) >> (16 * half)) & 0xffffu;
    if (active) {
      if (mine == 0) {
        a = b;  // none in range: the answer is b
      } else {
        const auto first = static_cast<std::size_t>(__ffs(static_cast<int>(mine)) - 1);
        const std::size_t probe = a + (first + 1) * stride - 1;
        a += first * stride;
        b = probe < b ? probe : b;
      }
    }
  }
  r0 = __shfl_sync(full_warp, a, 0);
  r1 = __shfl_sync(full_warp, a, 16);
}

// The fold of `value` over the warp's lanes, the same in every lane: a tree to lane 0 (lane l
// takes lane l + 16, + 8, ...), then lane 0's result broadcast. With maybe values and maybe_op,
// absent values are skipped; where Op has an identity, lanes without a value can hold it instead,
// and no presence flag travels through the shuffles.
template <class V, class Op>
__device__ __forceinline__ V warp_fold(V value, Op& op) {
#pragma unroll
  for (int delta = 16; delta > 0; delta /= 2) {
    value = op(value, shuffle_down(value, static_cast<unsigned int>(delta)));
  }
  return shuffle_from(value, 0);
}

// f[0] becomes the fold of f[0 .. N) as a tree of neighbours: pairs, then pairs of pairs (fewer and
// shorter dependent steps than one by one).
template <int N, class T, class Op>
__device__ __forceinline__ T fold_neighbours(T (&f)[N], Op& op) {
#pragma unroll
  for (int width = 1; width < N; width *= 2) {
#pragma unroll
    for (int k = 0; k + width < N; k += 2 * width) {
      f[k] = op(f[k], f[k + width]);
    }
  }
  return f[0];
}

// A 16-byte word of items (or one item, for items that do not pack into 16 bytes).
template <class Item>
using walk_word = std::conditional_t<reduce_vectorizable<Item>, uint4, Item>;

// The first pass: each warp of the grid (a walker) takes an equal range of the merged sequence.
// Segments that begin and end in the range are written; the run open at each end of the range
// becomes a record.
//
// A walker reads its items in groups of 32 x words_per_lane 16-byte words, aligned to 16-byte
// boundaries of the input; lane l holds the group's words l * words_per_lane onwards (consecutive
// items). Words that lie wholly inside the walker's items are 16-byte loads, the partial ones at
// its range's two ends are read item by item; the next group's loads are in flight while a group is
// walked. A group in which no segment ends adds each lane's items to that lane's accumulator (a
// lane holding only the walker's items folds them in pairs first). A group in which at most
// few_ends do (and the window of ends holds them and the next): for each end, each lane adds its
// items before the end to its accumulator (as a tree, with a neutral element for the items that are
// not its, where Op has an identity), the accumulators are folded (warp_fold) onto the carry (the
// open segment's value so far), and the segment is emitted. A group with more ends: the lanes'
// accumulators are folded onto the carry, the ends are scattered as tails (one per non-empty
// segment) into the warp's shared row, each lane folds its items in order, closing a run at each
// tail, and the runs join across the lanes (a segmented warp scan, the carry in front).
template <class Tuning, class T, class Op, class Item, class Offsets>
__global__ void __launch_bounds__(segmented_here<Tuning>.block_threads,
                                  segmented_here<Tuning>.min_blocks_per_sm)
    segmented_reduce_kernel(const Item* __restrict__ in, Offsets offsets, std::size_t segments,
                            T* __restrict__ out, T init, Op op, segment_records<T> records) {
  constexpr int threads = segmented_here<Tuning>.block_threads;
  // Items narrower than 4 bytes take proportionally fewer words, so that a lane holds at most
  // 4 x words_per_lane items and a warp's row of tails at most 512 x words_per_lane bytes.
  constexpr int words_per_lane =
      sizeof(Item) >= 4 ? segmented_here<Tuning>.words_per_lane
      : segmented_here<Tuning>.words_per_lane * static_cast<int>(sizeof(Item)) >= 4
          ? segmented_here<Tuning>.words_per_lane * static_cast<int>(sizeof(Item)) / 4
          : 1;
  constexpr int warps = threads / 32;
  static_assert(threads % 32 == 0 && threads <= 1024 && words_per_lane >= 1,
                "segmented_reduce_policy: block_threads a multiple of 32 up to 1024");
  constexpr std::size_t per_word = reduce_items_per_word<Item>;
  constexpr int per_lane = words_per_lane * static_cast<int>(per_word);
  constexpr std::size_t group = 32 * static_cast<std::size_t>(per_lane);
  using word_t = walk_word<Item>;
  constexpr std::uint32_t no_tail = 0xffffffffu;
  constexpr int few_ends = segmented_here<Tuning>.few_ends;
  static_assert(few_ends >= 0 && few_ends <= 31, "segmented_reduce_policy: few_ends 0 to 31");
  // Per warp, item k of lane l at [k * 32 + l] (conflict-free reads): the key, less the group's
  // first key, of the segment whose last item it is; no_tail elsewhere (each lane clears its own).
  __shared__ std::uint32_t tails_of[warps][group];

  wait_for_prior_grids();
  const int lane = lane_id();
  const int warp = static_cast<int>(threadIdx.x) / 32;
  std::uint32_t* const tails = tails_of[warp];
#pragma unroll
  for (int k = 0; k < per_lane; ++k) {
    tails[k * 32 + lane] = no_tail;
  }
  __syncwarp();
  const std::size_t walker = std::size_t{blockIdx.x} * warps + static_cast<std::size_t>(warp);
  const std::size_t walkers = std::size_t{gridDim.x} * warps;
  const bool first_walker = walker == 0;

  const auto first_offset = static_cast<std::size_t>(offsets[0]);
  const auto last_offset = static_cast<std::size_t>(offsets[segments]);
  // Offsets that decrease give undefined results, but every read stays inside
  // in[offsets[0], max(offsets[0], offsets[segments])) and every write inside out[0, segments).
  const std::size_t n = last_offset > first_offset ? last_offset - first_offset : 0;
  const std::size_t total = segments + n;
  // Each walker's share, rounded up to an odd multiple of range_unit steps where the segments
  // average a group or more: the walkers advance in step, and shares of 2^k items would put their
  // streams a power of two bytes apart.
  std::size_t range = ceil_div(total, walkers);
  if constexpr (segmented_here<Tuning>.range_unit > 0) {
    if (n / group >= segments) {
      constexpr std::size_t unit = segmented_here<Tuning>.range_unit;
      range = ceil_div(range, unit);
      range = (range % 2 == 0 ? range + 1 : range) * unit;
    }
  }
  if (range >= std::size_t{0x7fffffff}) {
    __trap();  // ranges of 2^31 steps: more than 2^43 items on the library's policy
  }
  const std::size_t lo = walker * range < total ? walker * range : total;
  const std::size_t hi = total - lo > range ? lo + range : total;
  const Item* const items_in = in + first_offset;
  // The walk's state at steps lo and hi: the number of segment ends before each.
  std::size_t s_lo = 0, s_hi = 0;
  warp_search_two(
      lo > n ? lo - n : 0, lo < segments ? lo : segments, lo, hi > n ? hi - n : 0,
      hi < segments ? hi : segments, hi,
      [&](std::size_t j) { return static_cast<std::size_t>(offsets[j + 1]) - first_offset + j; },
      s_lo, s_hi);
  s_hi = s_hi > s_lo ? s_hi : s_lo;
  // Positions from here on are "virtual": item i is at i + head, so that groups start at 16-byte
  // boundaries of the input.
  std::size_t head = 0;
  if constexpr (reduce_vectorizable<Item>) {
    head = (reinterpret_cast<std::uintptr_t>(items_in) % 16) / sizeof(Item);
  }
  const std::size_t v_lo = lo - s_lo + head;
  const std::size_t v_hi = (hi - s_hi > lo - s_lo ? hi - s_hi : lo - s_lo) + head;
  // The walk counts positions from its first group's start, in 32 bits (a range is below 2^31
  // steps, so its items and the group before them are too): position r is virtual position
  // base + r, and group i of the walk starts at position i * group.
  const std::size_t g_first = v_lo / group;
  const std::size_t base = g_first * group;
  const auto r_lo = static_cast<std::uint32_t>(v_lo - base);
  const auto r_hi = static_cast<std::uint32_t>(v_hi - base);
  const std::uint32_t groups =
      v_hi > v_lo ? static_cast<std::uint32_t>(ceil_div(v_hi, group) - g_first) : 1;
  // Position r is item r + item_of (mod 2^64; virtual position v is item v - head); the words
  // counted from position 0.
  const std::size_t item_of = base - head;
  const word_t* const words = reinterpret_cast<const word_t*>(
      reinterpret_cast<std::uintptr_t>(items_in) + item_of * sizeof(Item));
  // Segment j's end (one past its last item) as a position, clamped into the walker's items; past
  // the walker's last end: "never".
  constexpr std::uint32_t never = 0xffffffffu;
  const auto end_at = [&](std::size_t j) -> std::uint32_t {
    if (j >= s_hi) {
      return never;
    }
    const auto o = static_cast<std::size_t>(offsets[j + 1]);
    std::size_t e = (o > first_offset ? o - first_offset : 0) + head;
    e = e < v_lo ? v_lo : e;
    return static_cast<std::uint32_t>((e > v_hi ? v_hi : e) - base);
  };

  maybe_op<Op> mop{op};
  segment_writer<T, Op> finish{out, init, op, segments};
  // A segment closed in this range: the one open at its start (unless this is the first walker)
  // is a record for the fixup, the others are written.
  const auto emit = [&](std::uint64_t key, const maybe<T>& part) {
    if (key == s_lo && !first_walker) {
      records.put(2 * walker, s_lo, part);  // the head: it began before the range
    } else {
      finish(key, part);
    }
  };

  // The window of ends: lane j holds end (win + j) for j >= used, the next 32 ends in `ahead`.
  std::size_t win = s_lo;
  std::uint32_t window = end_at(win + static_cast<std::size_t>(lane));
  std::uint32_t ahead = end_at(win + 32 + static_cast<std::size_t>(lane));
  int used = 0;
  std::uint32_t next_end = __shfl_sync(full_warp, window, 0);  // the first end not yet taken
  std::uint32_t last_end = r_lo;  // the end taken last (where the open segment's items begin)
  maybe<T> carry = nothing<T>();
  maybe<T> acc = nothing<T>();
  // The lanes' accumulators folded across the warp onto the carry (warp_fold's tree; where Op has
  // an identity, lanes without one hold it and no presence flag travels), then emptied.
  const auto fold_lanes = [&] {
    if (__ballot_sync(full_warp, acc.has) != 0) {
      if constexpr (has_identity<Op, T>) {
        const T all = warp_fold(acc.has ? acc.value : neutral<Op, T>(), op);
        carry = mop(carry, maybe<T>{all, true});
      } else {
        carry = mop(carry, warp_fold(acc, mop));
      }
      acc = nothing<T>();
    }
  };

  // This lane's words of the walk's group g; its items [first, last) are the walker's.
  const auto load = [&](std::uint32_t g, word_t(&w)[words_per_lane], int& first, int& last) {
    const std::uint32_t v0 = g * static_cast<std::uint32_t>(group) + lane * per_lane;
    first = r_lo > v0 ? static_cast<int>(r_lo - v0 < per_lane ? r_lo - v0 : per_lane) : 0;
    last = r_hi > v0 ? static_cast<int>(r_hi - v0 < per_lane ? r_hi - v0 : per_lane) : 0;
    const std::uint32_t w0 = (g * 32 + static_cast<std::uint32_t>(lane)) * words_per_lane;
    if (first == 0 && last == per_lane) {
#pragma unroll
      for (int k = 0; k < words_per_lane; ++k) {
        if constexpr (reduce_vectorizable<Item>) {
          w[k] = load16(words + w0 + k);  // a plain load here is split into 32-bit ones
        } else {
          w[k] = words[w0 + k];
        }
      }
    } else {
      Item items[per_lane] = {};
#pragma unroll
      for (int k = 0; k < per_lane; ++k) {
        if (k >= first && k < last) {
          items[k] = items_in[static_cast<std::size_t>(v0 + k) + item_of];
        }
      }
      memcpy(w, items, sizeof(items));
    }
  };

  // How many of the window's ends from lane `used` on are at most `until`, in a row.
  const auto ends_taken = [&](std::uint32_t until) {
    const unsigned int taken = __ballot_sync(full_warp, lane >= used && window <= until) >> used;
    return taken == (0xffffffffu >> used) ? 32 - used : __ffs(~taken) - 1;
  };

  // The walk's group g: positions [g * group, (g + 1) * group), ends up to `until` taken.
  const auto walk_group = [&](std::uint32_t g, const word_t(&w)[words_per_lane], int first,
                              int last, std::uint32_t until) {
    Item items[per_lane];
    memcpy(items, w, sizeof(items));
    // Adds the lane's items [lower, upper) to its accumulator.
    const auto add_items = [&](int lower, int upper) {
#pragma unroll
      for (int k = 0; k < per_lane; ++k) {
        if (k >= lower && k < upper) {
          acc = {acc.has ? op(acc.value, static_cast<T>(items[k])) : static_cast<T>(items[k]),
                 true};
        }
      }
    };
    if (next_end > until) {  // no segment ends here
      if (first == 0 && last == per_lane) {
        // All the lane's items: folded as a tree of neighbours, then onto the accumulator.
        T folded[per_lane];
#pragma unroll
        for (int k = 0; k < per_lane; ++k) {
          folded[k] = static_cast<T>(items[k]);
        }
        const T all = fold_neighbours(folded, op);
        acc = {acc.has ? op(acc.value, all) : all, true};
      } else {
        add_items(first, last);
      }
      return;
    }
    const std::uint32_t va = g * static_cast<std::uint32_t>(group);
    if constexpr (few_ends > 0) {
      // The ends this group takes, lanes used .. used + count - 1 of the window, if they are few
      // and the window holds one more: each closes the open segment at once. The lanes add their
      // items before the end to their accumulators, the accumulators fold across the lanes
      // (warp_fold) onto the carry, and the segment is emitted; an empty one emits what it has.
      const int count = ends_taken(until);
      if (count <= few_ends && used + count < 32) {
        const int lane_first = lane * per_lane;  // the lane's first item, from the group's start
        // Closes segment win + used + i: the accumulators fold across the lanes onto the carry.
        const auto close = [&](int i) {
          // Converge the lanes first: left to itself, the compiler reached the fold's shuffles
          // with the warp diverged, and they took the slow path (2.6x the time at 256 items).
          __syncwarp();
          fold_lanes();
          if (lane == 0) {
            emit(win + static_cast<std::size_t>(used + i), carry);
          }
          carry = nothing<T>();
        };
        // End i's position in the group: in [0, group] (e <= until); below va only where offsets
        // decrease.
        const auto end_in_group = [&](int i) {
          const std::uint32_t e = __shfl_sync(full_warp, window, used + i);
          return e > va ? static_cast<int>(e - va) : 0;
        };
        if constexpr (has_identity<Op, T>) {
          // The lane's pieces as bit masks of its items: piece i (i < count) the items before end
          // i not taken by an earlier piece, piece count the rest. Each folds as a tree, items
          // outside it replaced by a neutral element; piece 0 joins the accumulator.
          using mask_t = std::conditional_t<(per_lane < 32), std::uint32_t, std::uint64_t>;
          const auto below = [](int k) { return (mask_t{1} << k) - 1; };  // k <= per_lane
          const mask_t mine = below(last) & ~below(first);
          const auto tree = [&](mask_t piece) {
            T f[per_lane];
#pragma unroll
            for (int k = 0; k < per_lane; ++k) {
              f[k] = (piece >> k) & 1 ? static_cast<T>(items[k]) : neutral<Op, T>();
            }
            return maybe<T>{fold_neighbours(f, op), piece != 0};
          };
          // The lane's items before each end, and the piece that holds all of them where no end
          // splits them (the first end with items of the lane before it; count if none).
          mask_t before[few_ends];
          int whole = count;
          bool split = false;
#pragma unroll
          for (int i = 0; i < few_ends; ++i) {
            if (i < count) {
              int to = end_in_group(i) - lane_first;
              to = to < 0 ? 0 : to > per_lane ? per_lane : to;
              before[i] = mine & below(to);
              if (whole == count && before[i] != 0) {
                whole = i;
                split = before[i] != mine;
              }
            }
          }
          if (__any_sync(full_warp, split)) {
            mask_t taken = 0;
#pragma unroll
            for (int i = 0; i < few_ends; ++i) {
              if (i < count) {
                acc = fold_maybe(acc, tree(before[i] & ~taken), op);
                taken |= before[i];
                close(i);
              }
            }
            acc = fold_maybe(acc, tree(mine & ~taken), op);
          } else {
            // No end splits a lane's items (ends on lane boundaries, as in segments whose lengths
            // are multiples of per_lane): one tree a lane, the one its piece's fold would make.
            const maybe<T> all = tree(mine);
#pragma unroll
            for (int i = 0; i < few_ends; ++i) {
              if (i < count) {
                if (whole == i) {
                  acc = fold_maybe(acc, all, op);
                }
                close(i);
              }
            }
            if (whole == count) {
              acc = fold_maybe(acc, all, op);
            }
          }
        } else {
          int from = 0;  // the group's items before `from` are taken
          // Adds the lane's items of the group's positions [from, to).
          const auto add_until = [&](int to) {
            add_items(from - lane_first > first ? from - lane_first : first,
                      to - lane_first < last ? to - lane_first : last);
          };
#pragma unroll 1
          for (int i = 0; i < count; ++i) {
            const int to = end_in_group(i);
            add_until(to);
            close(i);
            from = to > from ? to : from;
          }
          add_until(static_cast<int>(group));
        }
        last_end = __shfl_sync(full_warp, window, used + count - 1);
        used += count;
        next_end = __shfl_sync(full_warp, window, used);
        return;
      }
    }
    fold_lanes();
    const std::size_t key_base = win + static_cast<std::size_t>(used);
    // The ends taken here, 32 at a time: each non-empty segment's tail into the warp's row.
    bool open_from_before = true;  // the next end closes the segment open when the group began
    for (;;) {
      const std::uint32_t before = __shfl_up_sync(full_warp, window, 1);
      const int count = ends_taken(until);
      if (lane >= used && lane < used + count) {
        const std::size_t key = win + static_cast<std::size_t>(lane);
        const bool continues = lane == used && open_from_before;
        std::uint32_t begin = lane == used ? last_end : before;
        begin = begin > va ? begin : va;
        if (window > begin) {
          const std::uint32_t p = window - 1 - va;
          tails[(p % per_lane) * 32 + p / per_lane] = static_cast<std::uint32_t>(key - key_base);
        } else if (continues) {
          emit(key, carry);  // no items here: what came before is all of it
        } else {
          finish(key, nothing<T>());  // empty
        }
      }
      if (count > 0) {
        const std::uint32_t first_taken = __shfl_sync(full_warp, window, used);
        const std::uint32_t first_begin = last_end > va ? last_end : va;
        if (open_from_before && first_taken <= first_begin) {
          carry = nothing<T>();  // emitted above
        }
        last_end = __shfl_sync(full_warp, window, used + count - 1);
        open_from_before = false;
      }
      used += count;
      if (used == 32) {
        win += 32;
        used = 0;
        window = ahead;
        ahead = end_at(win + 32 + static_cast<std::size_t>(lane));
        next_end = __shfl_sync(full_warp, window, 0);
        continue;  // more ends may be taken here
      }
      next_end = __shfl_sync(full_warp, window, used);
      break;
    }
    __syncwarp();
    // This lane's items, folded in order; a tail closes the run it ends.
    thread_runs<T, Op> runs;
    T run{};
    bool open = false;
#pragma unroll
    for (int k = 0; k < per_lane; ++k) {
      const std::uint32_t tail = tails[k * 32 + lane];
      if (tail != no_tail) {
        tails[k * 32 + lane] = no_tail;
      }
      if (k >= first && k < last) {
        const auto x = static_cast<T>(items[k]);
        run = open ? op(run, x) : x;
        open = true;
        if (tail != no_tail) {
          runs.close_with(key_base + tail, maybe<T>{run, true}, finish);
          open = false;
        }
      }
    }
    runs.acc = maybe<T>{run, open};
    // Join the lanes' runs in lane order, the carry in front (where Op has an identity, a lane
    // without an open run holds it, and the scan moves no presence flags).
    bool seen = runs.closed;
    maybe<T> upto, previous;
    if constexpr (has_identity<Op, T>) {
      const T all = warp_segmented_scan(open ? run : neutral<Op, T>(), seen, op);
      upto = {all, true};
      previous = {shuffle_up(all, 1), true};
    } else {
      upto = warp_segmented_scan(runs.acc, seen, mop);
      previous = shuffle_up(upto, 1);
    }
    const bool previous_seen = __shfl_up_sync(full_warp, seen ? 1 : 0, 1) != 0;
    const maybe<T> before = lane == 0 ? carry : (previous_seen ? previous : mop(carry, previous));
    if (runs.closed) {
      emit(runs.first_key, mop(before, runs.first));
    }
    const maybe<T> last_run = shuffle_from(upto, 31);
    const bool last_seen = __shfl_sync(full_warp, seen ? 1 : 0, 31) != 0;
    carry = last_seen ? last_run : mop(carry, last_run);
    __syncwarp();  // this group's reads of the row before the next group's writes
  };

  word_t current[words_per_lane], next[words_per_lane];
  int first = 0, last = 0, next_first = 0, next_last = 0;
  load(0, current, first, last);
#pragma unroll 1
  for (std::uint32_t g = 0; g < groups; ++g) {
    if (g + 1 < groups) {
      load(g + 1, next, next_first, next_last);
    }
    // The ends a group takes: those up to its last item; the walker's last group takes the rest.
    walk_group(g, current, first, last,
               g + 1 >= groups ? r_hi : (g + 1) * static_cast<std::uint32_t>(group));
#pragma unroll
    for (int k = 0; k < words_per_lane; ++k) {
      current[k] = next[k];
    }
    first = next_first;
    last = next_last;
  }
  fold_lanes();
  if (lane == 0) {
    // The run open at the range's end is segment win + used. Where the head never closed, it is
    // that run.
    const std::size_t open_key = win + static_cast<std::size_t>(used);
    const bool head_closed = open_key > s_lo;
    if (!head_closed && !first_walker) {
      records.put(2 * walker, s_lo, carry);
      records.put(2 * walker + 1, s_lo, nothing<T>());
    } else {
      records.put(2 * walker + 1, open_key, carry);
    }
  }
  allow_next_grid();
}

// A warp's 32 x N consecutive values v(0) .. v(32 N - 1), read coalesced (value j * 32 + lane in
// round j) and handed back blocked (lane l gets values l * N .. l * N + N - 1) through `stage`, 32
// rows of N | 1 values in shared memory (an odd row keeps both passes free of bank conflicts).
template <int N, class V, class Read>
__device__ __forceinline__ void warp_read_blocked(V* stage, Read read, V (&out)[N]) {
  constexpr int row = N | 1;
  const int lane = lane_id();
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const int e = j * 32 + lane;
    stage[(e / N) * row + e % N] = read(e);
  }
  __syncwarp();
#pragma unroll
  for (int k = 0; k < N; ++k) {
    out[k] = stage[lane * row + k];
  }
  __syncwarp();  // these reads before the stage's next writes
}

// The second pass, one block: records 1 .. 2 * walkers - 2 in order (the first walker's head
// never leaves it, the last walker's tail is past the last segment). Consecutive records of one key
// are the pieces of one segment; each key is written once, when the key changes. Each thread takes
// fixup_items_per_thread consecutive records of a chunk; a warp reads its records coalesced and
// hands them out through shared memory where its stage fits (a thread's records are one 128-byte
// line of keys: read directly, every load instruction of a warp touched 32 lines).
template <class Tuning, class T, class Op>
__global__ void __launch_bounds__(segmented_here<Tuning>.block_threads)
    segmented_fixup_kernel(segment_records<T> records, std::size_t count, std::size_t segments,
                           T* __restrict__ out, T init, Op op) {
  constexpr int threads = segmented_here<Tuning>.block_threads;
  constexpr int per_thread = segmented_here<Tuning>.fixup_items_per_thread;
  constexpr std::size_t chunk = std::size_t{threads} * per_thread;
  using join_t = runs_across_block<threads, T, Op>;
  __shared__ typename join_t::storage join_storage;
  constexpr std::size_t stage_words = 32 * static_cast<std::size_t>(per_thread | 1);
  constexpr std::size_t stage_bytes =
      stage_words * (sizeof(T) > sizeof(std::uint64_t) ? sizeof(T) : sizeof(std::uint64_t));
  constexpr bool staged = stage_bytes * (threads / 32) <= 40 * 1024;
  // One stage a warp: the keys, then the parts.
  __shared__ alignas(16) unsigned char stages[staged ? threads / 32 : 1][staged ? stage_bytes : 1];

  wait_for_prior_grids();
  const int rank = static_cast<int>(threadIdx.x);
  maybe_op<Op> mop{op};
  segment_writer<T, Op> finish{out, init, op, segments};
  maybe<T> carry = nothing<T>();
  int phase = 0;
  const std::size_t first = 1;
  const std::size_t end = first + count;
  for (std::size_t c = first; c < end; c += chunk) {
    const std::size_t start = c + static_cast<std::size_t>(rank) * per_thread;
    const std::size_t from = start < end ? start : end;
    std::uint64_t words[per_thread];  // a record's key with its has-part bit
    T values[per_thread];
    std::uint64_t open;  // the key of the record before this thread's first
    if constexpr (staged) {
      const std::size_t warp_start = c + static_cast<std::size_t>(rank / 32) * 32 * per_thread;
      unsigned char* const stage = stages[rank / 32];
      warp_read_blocked(
          reinterpret_cast<std::uint64_t*>(stage),
          [&](int e) {
            const std::size_t j = warp_start + static_cast<std::size_t>(e);
            return j < end ? records.keys[j] : std::uint64_t{0};
          },
          words);
      warp_read_blocked(
          reinterpret_cast<T*>(stage),
          [&](int e) {
            const std::size_t j = warp_start + static_cast<std::size_t>(e);
            return j < end ? records.parts[j] : T{};
          },
          values);
      open = __shfl_up_sync(full_warp, words[per_thread - 1], 1) & ~segment_records<T>::has_part;
      if (lane_id() == 0) {
        open = records.key(from > first ? from - 1 : first);
      }
    } else {
#pragma unroll
      for (int k = 0; k < per_thread; ++k) {
        const std::size_t j = start + k;
        if (j < end) {
          words[k] = records.keys[j];
          values[k] = records.parts[j];
        }
      }
      open = records.key(from > first ? from - 1 : first);
    }
    thread_runs<T, Op> runs;
#pragma unroll
    for (int k = 0; k < per_thread; ++k) {
      const std::size_t j = start + k;
      if (j < end) {
        const std::uint64_t key = words[k] & ~segment_records<T>::has_part;
        if (key != open) {
          runs.close(open, finish);
          open = key;
        }
        if ((words[k] & segment_records<T>::has_part) != 0) {
          runs.add(values[k], op);
        }
      }
    }
    const maybe<T> before = join_t::join(join_storage, phase, mop, runs, carry, rank);
    if (runs.closed) {
      finish(runs.first_key, mop(before, runs.first));
    }
  }
  if (rank == 0 && count > 0) {
    finish(records.key(end - 1), carry);
  }
}

// The walkers of a policy: every warp of its grid.
inline constexpr std::size_t segmented_walkers(const segmented_reduce_policy& p) {
  return std::size_t{p.blocks} * static_cast<std::size_t>(p.block_threads / 32);
}

// The keys, then the parts: 16-byte aligned where the workspace is (2 * walkers keys of 8 bytes).
template <class T>
inline constexpr std::size_t segmented_workspace_bytes(const segmented_reduce_policy& p) {
  return 2 * segmented_walkers(p) * (sizeof(std::uint64_t) + sizeof(T));
}

inline constexpr std::size_t segmented_workspace_alignment = 16;

// Launches both passes; the caller has checked the arguments. `workspace`: the records, aligned.
template <class Tuning, class T, class Op, class Item, class Offsets>
cudaError_t launch_segmented_reduce(const Item* in, Offsets offsets, std::size_t segments, T* out,
                                    T init, Op op, void* workspace, cudaStream_t stream) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const segmented_reduce_policy p = Tuning::select(facts.target_arch);
  const bool dependent = dependent_launch(p.dependent_launch, facts);
  static_assert(alignof(T) <= segmented_workspace_alignment, "T aligned to at most 16 bytes");
  auto* keys = static_cast<std::uint64_t*>(workspace);
  const std::size_t walkers = segmented_walkers(p);
  const segment_records<T> records{keys, reinterpret_cast<T*>(keys + 2 * walkers)};
  const dim3 block(static_cast<unsigned int>(p.block_threads));
  GPUPRIMS_RETURN_IF_ERROR((launch<segmented_reduce_kernel<Tuning, T, Op, Item, Offsets>>(
      dim3(p.blocks), block, stream, dependent, in, offsets, segments, out, init, op, records)));
  if (walkers < 2) {
    return cudaSuccess;
  }
  return launch<segmented_fixup_kernel<Tuning, T, Op>>(dim3(1), block, stream, dependent, records,
                                                       2 * walkers - 2, segments, out, init, op);
}

}  // namespace gpuprims::detail

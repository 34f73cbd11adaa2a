// gpuprims::segmented_reduce's kernels: a merge path over the segments' ends and the items, cut
// into equal ranges, one per block; the partials of segments that cross ranges meet in one more
// block.
//
// The sequence. Segment j holds items [offsets[j], offsets[j + 1]) (relative to offsets[0]); merge
// the n items with the S segment ends so that end j comes right after segment j's last item (and
// before the next item): end j is step p_j = (offsets[j + 1] - offsets[0]) + j of S + n steps. A
// walker in state s (segment s open) at step d either closes s (d == p_s) or adds item d - s. Every
// step is one unit of work, whatever the lengths: a million empty segments and one of 2^24 items
// cost what their steps cost, and empty segments cost a step each.
//
// The order. Block b walks steps [b * R, (b + 1) * R) (R: S + n over the policy's blocks, rounded
// up to whole tiles), tile by tile; thread r folds the tile's items r * items_per_thread onwards
// (items_per_thread of them; a tile's ends only cut them into runs). A run (the part of one
// segment inside a thread) folds in item order; runs join with the threads
// before them through a segmented scan over the block (block_segmented.cuh) and a carry from the
// tile before. A segment that crosses a range boundary leaves a record at each boundary (the head
// and the tail of each block's range); the fixup block walks the records in order. A run of one
// segment of at least run_min_steps is read as gpuprims::reduce reads (interleaved), so Op must
// commute. All of it depends on the offsets and the policy only: the bits repeat on every GPU.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/detail/reduce/block_segmented.cuh>
#include <gpuprims/detail/reduce/tiles.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/tuning/reduce.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

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
// open when the tile began). Returns what comes before this thread's first run (carry included);
// leaves in `carry`, in every thread, the part of the run open at the tile's end. The scan's two
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
      __syncwarp();  // a one-warp block's only step between this tile's reads and the next's writes
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

// The smallest j in [a, b) with step_of(j) >= d (b if none), for step_of increasing in j. A warp
// searches together, 32 probes a round (log32 of the range); every lane returns the answer.
template <class Index, class StepOf>
__device__ Index warp_search(Index a, Index b, Index d, StepOf step_of) {
  const auto lane = static_cast<Index>(lane_id());
  while (a < b) {
    const Index stride = (b - a + 31) / 32;
    const Index j = a + (lane + 1) * stride - 1;
    const unsigned int ballot = __ballot_sync(full_warp, j >= b || step_of(j) >= d);
    if (ballot == 0) {
      return b;
    }
    const auto first = static_cast<Index>(__ffs(static_cast<int>(ballot)) - 1);
    const Index probe = a + (first + 1) * stride - 1;
    a += first * stride;
    b = probe < b ? probe : b;
  }
  return a;
}

// This thread's share of a run of `m` items of one segment at `p`: 16-byte words (StreamLoads in
// flight per thread) between the items before the first 16-byte boundary and those after the last,
// each folded in address order. The same shares and order as a reduce over those items would give
// for this block shape, a function of `p`'s alignment and `m` only.
template <int Threads, int StreamLoads, class T, class Op, class Item>
__device__ __forceinline__ void run_share(const Item* p, std::size_t m, Op& op, int rank,
                                          thread_runs<T, Op>& runs) {
  constexpr std::size_t per_word = reduce_items_per_word<Item>;
  const reduce_layout<Item> layout(p, m);
  const auto r = static_cast<std::size_t>(rank);
  if (r < layout.head) {
    runs.add(static_cast<T>(p[r]), op);
  }
  const Item* words = p + layout.head;
  strided_load_then_consume<StreamLoads>(
      layout.words, r, Threads,
      [&](std::size_t w) {
        if constexpr (reduce_vectorizable<Item>) {
          return reinterpret_cast<const uint4*>(words)[w];
        } else {
          return words[w];
        }
      },
      [&](std::size_t, const auto& word) {
        if constexpr (reduce_vectorizable<Item>) {
          Item items[per_word];
          memcpy(items, &word, 16);
#pragma unroll
          for (std::size_t j = 0; j < per_word; ++j) {
            runs.add(static_cast<T>(items[j]), op);
          }
        } else {
          runs.add(static_cast<T>(word), op);
        }
      });
  if (r < layout.tail) {
    runs.add(static_cast<T>(words[layout.words * per_word + r]), op);
  }
}

// A tile's items in shared memory, one padding slot every 32 so that thread r reading its
// consecutive items r * P .. r * P + P - 1 meets no bank conflict (4-byte items).
template <class Item, std::size_t Tile>
struct tile_items {
  Item slots[Tile + Tile / 32];
  __device__ __forceinline__ Item& operator[](std::uint32_t j) { return slots[j + j / 32]; }
};

// Which segment, if any, ends at each item of a tile: tails[j] = k where item j is the last item
// of segment s0 + k (the tile's first open segment s0); no_tail elsewhere. Kept all no_tail between
// tiles (each thread clears what it read).
template <std::size_t Tile>
struct tile_tails {
  static constexpr std::uint16_t no_tail = 0xffff;
  static_assert(Tile < no_tail, "segmented_reduce_policy: tiles of fewer than 65535 steps");
  alignas(16) std::uint16_t at[Tile];

  // Thread `rank`'s P consecutive entries, cleared behind it.
  template <int P>
  __device__ __forceinline__ void take(int rank, std::uint16_t (&out)[P]) {
    std::uint16_t* mine = at + static_cast<std::size_t>(rank) * P;
    if constexpr (P % 8 == 0) {
      // 16-byte reads and writes: a warp's 512 bytes in four wavefronts.
      bool any = false;
#pragma unroll
      for (int k = 0; k < P; k += 8) {
        const uint4 v = reinterpret_cast<const uint4*>(mine)[k / 8];
        memcpy(out + k, &v, 16);
        any = any || (v.x & v.y & v.z & v.w) != 0xffffffffu;
      }
      if (any) {
#pragma unroll
        for (int k = 0; k < P; k += 8) {
          reinterpret_cast<uint4*>(mine)[k / 8] =
              make_uint4(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
        }
      }
    } else {
#pragma unroll
      for (int k = 0; k < P; ++k) {
        out[k] = mine[k];
        mine[k] = no_tail;
      }
    }
  }
};

// The first pass: block b walks its range of the merged sequence. Segments that begin and end in
// the range are written; the run open at each end of the range becomes a record.
//
// A tile of the walk is `tile` steps [d0, d1): the segments s0 .. s1 - 1 that end in it and the
// items [i0, i1) between. Each thread folds `per_thread` consecutive items (in item order, not
// steps: a tile holds at most `tile` items and at most `tile` ends, so both loops are bounded);
// the ends are first scattered as tails, one per non-empty segment, and the empty segments written.
template <class Tuning, class T, class Op, class Item, class Offsets>
__global__ void __launch_bounds__(segmented_here<Tuning>.block_threads,
                                  segmented_here<Tuning>.min_blocks_per_sm)
    segmented_reduce_kernel(const Item* __restrict__ in, Offsets offsets, std::size_t segments,
                            T* __restrict__ out, T init, Op op, segment_records<T> records) {
  constexpr int threads = segmented_here<Tuning>.block_threads;
  constexpr int per_thread = segmented_here<Tuning>.items_per_thread;
  constexpr std::size_t tile = std::size_t{threads} * per_thread;
  constexpr std::size_t window = 2 * tile;
  static_assert(threads % 32 == 0 && threads <= 1024 && per_thread > 0,
                "segmented_reduce_policy: block_threads a multiple of 32 up to 1024");
  static_assert((window & (window - 1)) == 0,
                "segmented_reduce_policy: 2 * block_threads * items_per_thread a power of two");
  using join_t = runs_across_block<threads, T, Op>;
  using tails_t = tile_tails<tile>;
  // ends[j % window]: the step of segment j's end relative to the range's start, for the segments
  // a tile can close and those the next can (a tile closes at most `tile`).
  __shared__ std::uint32_t ends[window];
  __shared__ tile_items<Item, tile> items;
  __shared__ tails_t tails;
  __shared__ typename join_t::storage join_storage;
  __shared__ std::size_t range_state;

  wait_for_prior_grids();
  const int rank = static_cast<int>(threadIdx.x);
  const auto first_offset = static_cast<std::size_t>(offsets[0]);
  const auto last_offset = static_cast<std::size_t>(offsets[segments]);
  // Offsets that decrease give undefined results, but every read stays inside
  // in[offsets[0], max(offsets[0], offsets[segments])) and every write inside out[0, segments).
  const std::size_t n = last_offset > first_offset ? last_offset - first_offset : 0;
  const std::size_t total = segments + n;
  const std::size_t range = ceil_div(ceil_div(total, gridDim.x), tile) * tile;
  if (range >= std::size_t{0xffffffff}) {
    __trap();  // ranges of 2^32 steps: more than 2^42 items on the library's policy
  }
  const std::size_t lo = blockIdx.x * range < total ? blockIdx.x * range : total;
  const std::size_t hi = total - lo > range ? lo + range : total;
  const Item* items_in = in + first_offset;

  if (rank < 32) {
    // The walk's state at step lo: the number of segment ends before it.
    const std::size_t state = warp_search(
        lo > n ? lo - n : 0, lo < segments ? lo : segments, lo,
        [&](std::size_t j) { return static_cast<std::size_t>(offsets[j + 1]) - first_offset + j; });
    if (rank == 0) {
      range_state = state;
    }
  }
#pragma unroll
  for (int k = 0; k < per_thread; ++k) {
    tails.at[k * threads + rank] = tails_t::no_tail;
  }
  __syncthreads();
  const std::size_t range_first = range_state;
  const auto end_step = [&](std::size_t j) -> std::uint32_t {
    const std::size_t step = static_cast<std::size_t>(offsets[j + 1]) - first_offset + j;
    return step < lo
               ? 0u
               : (step - lo >= 0xffffffffu ? 0xffffffffu : static_cast<std::uint32_t>(step - lo));
  };
  const auto load_ends = [&](std::size_t from, std::size_t to) {
    to = to < segments ? to : segments;
    for (std::size_t j = from + rank; j < to; j += threads) {
      ends[j % window] = end_step(j);
    }
  };
  load_ends(range_first, range_first + window);
  __syncthreads();

  maybe_op<Op> mop{op};
  segment_writer<T, Op> finish{out, init, op, segments};
  const bool first_block = blockIdx.x == 0;
  // A segment closed in this range: the one open at its start (unless this is the first block) is
  // a record for the fixup, the others are written.
  const auto emit = [&](std::uint64_t key, const maybe<T>& part) {
    if (key == range_first && !first_block) {
      records.put(2 * blockIdx.x, range_first, part);  // the head: it began before the range
    } else {
      finish(key, part);
    }
  };
  maybe<T> carry = nothing<T>();
  int phase = 0;
  std::size_t s0 = range_first;
  std::size_t previous_s0 = range_first;
  // Steps relative to lo from here on (a range is under 2^32 steps).
  const auto r_hi = static_cast<std::uint32_t>(hi - lo);
  // The next tile's items, loaded while this tile is walked: items [ahead_at, ahead_at + tile)
  // (those that exist; a tile holds at most `tile` items).
  Item ahead[per_thread];
  std::size_t ahead_at = ~std::size_t{0};
  const auto fetch = [&](std::size_t at) {
    const std::size_t left = n > at ? n - at : 0;
    const auto limit = static_cast<std::uint32_t>(left < tile ? left : tile);
#pragma unroll
    for (int k = 0; k < per_thread; ++k) {
      const auto j = static_cast<std::uint32_t>(k * threads + rank);
      ahead[k] = j < limit ? items_in[at + j] : Item{};
    }
    ahead_at = at;
  };
  for (std::uint32_t r0 = 0; r0 < r_hi;) {
    // Steps up to the next segment end are items of segment s0 alone: a long enough run of them
    // is read as a reduce reads (16-byte words, several loads in flight), with no walk and no
    // per-item bookkeeping.
    const std::uint32_t next_end = s0 < segments ? ends[s0 % window] : r_hi;
    const std::uint32_t run_end = next_end < r_hi ? next_end : r_hi;
    if (run_end > r0 && run_end - r0 >= segmented_here<Tuning>.run_min_steps) {
      thread_runs<T, Op> runs;
      run_share<threads, segmented_here<Tuning>.stream_loads, T>(items_in + (lo + r0 - s0),
                                                                 run_end - r0, op, rank, runs);
      join_t::join(join_storage, phase, mop, runs, carry, rank);
      r0 = run_end;
      fetch(lo + r0 - s0);
      continue;
    }
    const std::uint32_t r1 = r_hi - r0 > tile ? r0 + static_cast<std::uint32_t>(tile) : r_hi;
    // The segments that end in this tile: s0 + [0, k1). Each warp finds k1 on its own (no
    // barrier): three rounds of probes.
    const auto s0_slot = static_cast<std::uint32_t>(s0 % window);
    const auto most = static_cast<std::uint32_t>(segments - s0 < tile ? segments - s0 : tile);
    std::uint32_t k1 =
        warp_search(0u, most, r1, [&](std::uint32_t k) { return ends[(s0_slot + k) % window]; });
    // Clamps that only undefined (decreasing) offsets reach: items stay within [i0, i1) of [0, n].
    const std::size_t i0 = lo + r0 - s0;
    const std::size_t ends_at_least = lo + r1 > n + s0 ? lo + r1 - n - s0 : 0;
    k1 = k1 < ends_at_least ? static_cast<std::uint32_t>(ends_at_least) : k1;
    k1 = k1 > r1 - r0 ? r1 - r0 : k1;
    const std::uint32_t count = (r1 - r0) - k1;  // the tile's items
    if (ahead_at != i0) {
      fetch(i0);  // the range's first tile
    }
#pragma unroll
    for (int k = 0; k < per_thread; ++k) {
      const auto j = static_cast<std::uint32_t>(k * threads + rank);
      if (j < count) {
        items[j] = ahead[k];
      }
    }
    if (r1 < r_hi) {
      fetch(i0 + count);
    }
    // The tile's items before the end of segment s0 + k, within [0, count] (undefined offsets
    // included).
    const auto items_before_end = [&](std::uint32_t k) -> std::uint32_t {
      const auto e = static_cast<std::int32_t>(ends[(s0_slot + k) % window] - r0 - k);
      return e < 0
                 ? 0u
                 : (static_cast<std::uint32_t>(e) > count ? count : static_cast<std::uint32_t>(e));
    };
    for (auto k = static_cast<std::uint32_t>(rank); k < k1; k += threads) {
      const std::uint32_t e = items_before_end(k);
      const std::uint32_t b = k == 0 ? 0u : items_before_end(k - 1);
      if (e > b) {
        tails.at[e - 1] = static_cast<std::uint16_t>(k);
      } else if (k > 0) {
        finish(s0 + k, nothing<T>());  // empty
      }
    }
    // Segment s0 may end before the tile's first item: it is what the tiles before carried.
    if (k1 > 0 && items_before_end(0) == 0) {
      if (rank == 0) {
        emit(s0, carry);
      }
      carry = nothing<T>();
    }
    load_ends(previous_s0 + window, s0 + window);  // the slots the tile before has done with
    __syncthreads();

    // This thread's items, folded in order; a tail closes the run it ends.
    thread_runs<T, Op> runs;
    std::uint16_t tail[per_thread];
    tails.template take<per_thread>(rank, tail);
    const auto first = static_cast<std::uint32_t>(rank * per_thread);
    T acc{};
    bool open = false;
#pragma unroll
    for (int k = 0; k < per_thread; ++k) {
      if (first + k < count) {
        const auto x = static_cast<T>(items[first + k]);
        acc = open ? op(acc, x) : x;
        open = true;
        if (tail[k] != tails_t::no_tail) {
          runs.close_with(s0 + tail[k], maybe<T>{acc, true}, finish);
          open = false;
        }
      }
    }
    runs.acc = maybe<T>{acc, open};
    const maybe<T> before = join_t::join(join_storage, phase, mop, runs, carry, rank);
    if (runs.closed) {
      emit(runs.first_key, mop(before, runs.first));
    }
    previous_s0 = s0;
    s0 += k1;
    r0 = r1;
  }
  if (rank == 0) {
    // s0: the run open at the range's end. Where the head never closed it is that run.
    const bool head_closed = s0 > range_first;
    if (!head_closed && !first_block) {
      records.put(2 * blockIdx.x, range_first, carry);
      records.put(2 * blockIdx.x + 1, s0, nothing<T>());
    } else {
      records.put(2 * blockIdx.x + 1, s0, carry);
    }
  }
  allow_next_grid();
}

// The second pass, one block: records 1 .. 2 * blocks - 2 in order (the first block's head never
// leaves it, the last block's tail is past the last segment). Consecutive records of one key are
// the pieces of one segment; each key is written once, when the key changes.
template <class Tuning, class T, class Op>
__global__ void __launch_bounds__(segmented_here<Tuning>.block_threads)
    segmented_fixup_kernel(segment_records<T> records, std::size_t count, std::size_t segments,
                           T* __restrict__ out, T init, Op op) {
  constexpr int threads = segmented_here<Tuning>.block_threads;
  constexpr int per_thread = segmented_here<Tuning>.fixup_items_per_thread;
  constexpr std::size_t chunk = std::size_t{threads} * per_thread;
  using join_t = runs_across_block<threads, T, Op>;
  __shared__ typename join_t::storage join_storage;

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
    thread_runs<T, Op> runs;
    std::uint64_t open = records.key(from > first ? from - 1 : first);
#pragma unroll
    for (int k = 0; k < per_thread; ++k) {
      const std::size_t j = start + k;
      if (j < end) {
        const std::uint64_t key = records.key(j);
        const maybe<T> part = records.part(j);
        if (key != open) {
          runs.close(open, finish);
          open = key;
        }
        if (part.has) {
          runs.add(part.value, op);
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

// The keys, then the parts: 16-byte aligned where the workspace is (2 * blocks keys of 8 bytes).
template <class T>
inline constexpr std::size_t segmented_workspace_bytes(const segmented_reduce_policy& p) {
  return 2 * std::size_t{p.blocks} * (sizeof(std::uint64_t) + sizeof(T));
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
  const segment_records<T> records{keys, reinterpret_cast<T*>(keys + 2 * std::size_t{p.blocks})};
  const dim3 block(static_cast<unsigned int>(p.block_threads));
  GPUPRIMS_RETURN_IF_ERROR((launch<segmented_reduce_kernel<Tuning, T, Op, Item, Offsets>>(
      dim3(p.blocks), block, stream, dependent, in, offsets, segments, out, init, op, records)));
  if (p.blocks < 2) {
    return cudaSuccess;
  }
  return launch<segmented_fixup_kernel<Tuning, T, Op>>(dim3(1), block, stream, dependent, records,
                                                       2 * std::size_t{p.blocks} - 2, segments, out,
                                                       init, op);
}

}  // namespace gpuprims::detail

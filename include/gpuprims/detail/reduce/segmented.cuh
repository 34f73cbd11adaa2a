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
// up to whole tiles), tile by tile; each thread walks items_per_thread consecutive steps of a tile.
// A run (the part of one segment inside a thread) folds in item order; runs join with the threads
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

// One thread's walk: the run it starts in (`first_key`, possibly begun before it), whether that run
// closed, its part of it, and the run open when it stops. Runs that begin and end inside the
// thread are complete and go straight to `finish`.
template <class T, class Op>
struct thread_runs {
  std::uint64_t first_key;
  std::uint64_t key;
  bool closed = false;
  maybe<T> first = nothing<T>();
  maybe<T> acc = nothing<T>();

  __device__ explicit thread_runs(std::uint64_t start) : first_key(start), key(start) {}

  __device__ __forceinline__ void add(const T& x, Op& op) {
    acc.value = acc.has ? op(acc.value, x) : x;
    acc.has = true;
  }
  template <class Finish>
  __device__ __forceinline__ void close(std::uint64_t next, Finish& finish) {
    if (!closed) {
      closed = true;
      first = acc;
    } else {
      finish(key, acc);
    }
    acc = nothing<T>();
    key = next;
  }
};

// Joins the threads' runs across the block, in rank order, and with `carry` (the part of the run
// open when the tile began). Returns what comes before this thread's first run (carry included);
// leaves in `carry`, in every thread, the part of the run open at the tile's end.
template <int Threads, class T, class Op>
struct runs_across_block {
  using scan = block_segmented_scan<Threads, maybe<T>>;
  struct storage {
    typename scan::storage scan_storage;
    maybe<T> inclusive[Threads];
    bool seen[Threads];
  };

  __device__ static maybe<T> join(storage& s, maybe_op<Op>& mop, const thread_runs<T, Op>& runs,
                                  maybe<T>& carry, int rank) {
    // What this thread passes on: the run open at its end (its whole walk where nothing closed).
    bool seen = runs.closed;
    const maybe<T> upto = scan::inclusive(s.scan_storage, mop, runs.acc, seen, rank);
    s.inclusive[rank] = upto;
    s.seen[rank] = seen;
    __syncthreads();
    maybe<T> before = carry;
    if (rank > 0) {
      before = s.seen[rank - 1] ? s.inclusive[rank - 1] : mop(carry, s.inclusive[rank - 1]);
    }
    carry = s.seen[Threads - 1] ? s.inclusive[Threads - 1] : mop(carry, s.inclusive[Threads - 1]);
    __syncthreads();  // the storage is reused by the next tile
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
template <class StepOf>
__device__ std::size_t warp_search(std::size_t a, std::size_t b, std::size_t d, StepOf step_of) {
  const auto lane = static_cast<std::size_t>(lane_id());
  while (a < b) {
    const std::size_t stride = (b - a + 31) / 32;
    const std::size_t j = a + (lane + 1) * stride - 1;
    const unsigned int ballot = __ballot_sync(full_warp, j >= b || step_of(j) >= d);
    if (ballot == 0) {
      return b;
    }
    const auto first = static_cast<std::size_t>(__ffs(static_cast<int>(ballot)) - 1);
    const std::size_t probe = a + (first + 1) * stride - 1;
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

// The first pass: block b walks its range of the merged sequence. Segments that begin and end in
// the range are written; the run open at each end of the range becomes a record.
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
  // ends[j % window]: the step of segment j's end relative to the range's start, for the segments
  // a tile can close and those the next can (a tile closes at most `tile`).
  __shared__ std::uint32_t ends[window];
  __shared__ Item items[tile];
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
  // The first of [from, to) whose end is at or after relative step `step` (to if none).
  const auto state_at = [&](std::size_t from, std::size_t to, std::size_t step) {
    while (from < to) {
      const std::size_t mid = from + (to - from) / 2;
      if (ends[mid % window] < step) {
        from = mid + 1;
      } else {
        to = mid;
      }
    }
    return from;
  };
  load_ends(range_first, range_first + window);
  __syncthreads();

  maybe_op<Op> mop{op};
  segment_writer<T, Op> finish{out, init, op, segments};
  const bool first_block = blockIdx.x == 0;
  maybe<T> carry = nothing<T>();
  std::size_t s0 = range_first;
  std::size_t previous_s0 = range_first;
  for (std::size_t d0 = lo; d0 < hi;) {
    // Steps up to the next segment end are items of segment s0 alone: a long enough run of them
    // is read as a reduce reads (16-byte words, several loads in flight), with no walk and no
    // per-item bookkeeping.
    const std::size_t next_end = s0 < segments ? lo + ends[s0 % window] : hi;
    const std::size_t run_end = next_end < hi ? next_end : hi;
    if (run_end > d0 && run_end - d0 >= segmented_here<Tuning>.run_min_steps) {
      thread_runs<T, Op> runs(s0);
      run_share<threads, segmented_here<Tuning>.stream_loads, T>(items_in + (d0 - s0), run_end - d0,
                                                                 op, rank, runs);
      join_t::join(join_storage, mop, runs, carry, rank);
      d0 = run_end;
      continue;
    }
    const std::size_t d1 = hi - d0 > tile ? d0 + tile : hi;
    const std::size_t most = segments - s0 < tile ? segments : s0 + tile;
    // Each warp finds the tile's end state on its own (no barrier): three rounds of probes.
    std::size_t s1 = warp_search(s0, most, d1 - lo, [&](std::size_t j) {
      return static_cast<std::size_t>(ends[j % window]);
    });
    // Clamps that only undefined (decreasing) offsets reach: items stay within [i0, i1) of [0, n].
    s1 = d1 > n && s1 < d1 - n ? d1 - n : s1;
    s1 = s1 > s0 + (d1 - d0) ? s0 + (d1 - d0) : s1;
    const std::size_t i0 = d0 - s0;
    const std::size_t i1 = d1 - s1;
#pragma unroll
    for (int k = 0; k < per_thread; ++k) {
      const std::size_t j = static_cast<std::size_t>(k) * threads + rank;
      if (j < i1 - i0) {
        items[j] = items_in[i0 + j];
      }
    }
    load_ends(previous_s0 + window, s0 + window);  // the slots the tile before has done with
    __syncthreads();

    const std::size_t start = d0 + static_cast<std::size_t>(rank) * per_thread;
    const std::size_t s_start = start < d1 ? state_at(s0, s1, start - lo) : s1;
    thread_runs<T, Op> runs(s_start);
    if (start < d1) {
      std::size_t s = s_start;
      std::size_t i = start - s_start;
#pragma unroll
      for (int k = 0; k < per_thread; ++k) {
        const std::size_t d = start + k;
        if (d < d1) {
          if (s < s1 && (ends[s % window] == d - lo || i >= i1)) {
            ++s;
            runs.close(s, finish);
          } else if (i < i1) {
            runs.add(static_cast<T>(items[i - i0]), op);
            ++i;
          }
        }
      }
    }
    const maybe<T> before = join_t::join(join_storage, mop, runs, carry, rank);
    if (runs.closed) {
      const maybe<T> whole = mop(before, runs.first);
      if (runs.first_key == range_first && !first_block) {
        records.put(2 * blockIdx.x, range_first, whole);  // the head: it began before the range
      } else {
        finish(runs.first_key, whole);
      }
    }
    previous_s0 = s0;
    s0 = s1;
    d0 = d1;
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
  const std::size_t first = 1;
  const std::size_t end = first + count;
  for (std::size_t c = first; c < end; c += chunk) {
    const std::size_t start = c + static_cast<std::size_t>(rank) * per_thread;
    const std::size_t from = start < end ? start : end;
    thread_runs<T, Op> runs(records.key(from > first ? from - 1 : first));
#pragma unroll
    for (int k = 0; k < per_thread; ++k) {
      const std::size_t j = start + k;
      if (j < end) {
        const std::uint64_t key = records.key(j);
        const maybe<T> part = records.part(j);
        if (key != runs.key) {
          runs.close(key, finish);
        }
        if (part.has) {
          runs.add(part.value, op);
        }
      }
    }
    const maybe<T> before = join_t::join(join_storage, mop, runs, carry, rank);
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

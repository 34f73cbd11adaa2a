// apply_stencil1d_fused's kernels: Steps time steps of a 1D stencil in one pass over memory. A tile
// is loaded with a halo of Steps x Rad on each side (rounded up to whole units: 16-byte vectors,
// or elements where a policy's items are not a whole number of vectors), the stencil is applied
// Steps times over the whole loaded span (the halo's outer part turns to don't-care values step by
// step, never read by the tile's outputs), and the tile is stored. Each output adds its taps
// exactly as apply_stencil1d does (from 0, taps in order, fused multiply-adds, as stencil_unit),
// and positions outside [0, n) are set again after each step by the boundary rule from that
// step's values, so the result equals Steps calls of apply_stencil1d bit for bit. Periodic halos
// are loaded wrapped and need no resetting: a wrapped position evolves exactly as the position it
// copies.
//
// Two kernels (stencil_policy::fused_in_registers chooses):
//  - stencil_fused_warp_kernel: each warp steps its own tile in registers, halos from the
//    neighbouring lanes by shuffles, no barrier. Lane l holds either the span's units l, l + 32,
//    l + 64, ... (loads and stores are coalesced 16-byte words; each unit's halo comes by
//    shuffles), or (stencil_policy::fused_contiguous_lanes) the run of units l x units ..
//    l x units + units - 1 (only the run's two halos come by shuffles; its 16-byte words pass
//    through a stage in shared memory on the way in and out, so that global accesses stay
//    coalesced).
//  - stencil_fused_kernel: a block's tile in shared memory, two buffers in turn, a barrier a step.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/shuffle.cuh>
#include <gpuprims/detail/stencil/kernels.cuh>
#include <gpuprims/detail/stencil/tile.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpuprims::detail {

// The shape of one fused tile for blocks of `block` threads with `items` outputs each: `reach`
// positions (Steps x Rad rounded up to a vector) computed on each side of the tile; the span
// computed at each step, a whole number of the block's rounds of units (every thread computes the
// same number of units at every step: no round with a few threads busy), at least four reaches
// long; the tile of outputs inside it. The kernel's layout and the host's tile count both come
// from here.
struct fused_shape {
  int reach;
  int rounds;  // units per thread and step
  int span;
  int tile;
};

template <int Rad, int Steps, class T>
__host__ __device__ constexpr fused_shape fused_shape_of(int block, int items) {
  const int vector = 16 / static_cast<int>(sizeof(T));
  const int unit = items % vector == 0 ? vector : 1;  // stencil_layout's unit
  const int reach = (Steps * Rad + vector - 1) / vector * vector;
  const int rounds = items / unit * (1 + 4 * reach / (block * items));
  const int span = block * rounds * unit;
  return {reach, rounds, span, span - 2 * reach};
}

// The shape of one warp's tile in registers: 32 lanes x `items`, `reach` (Steps x Rad rounded up
// to a unit) recomputed on each side; `rounds` is the units a lane holds.
template <int Rad, int Steps, class T>
__host__ __device__ constexpr fused_shape fused_warp_shape_of(int items) {
  const int vector = 16 / static_cast<int>(sizeof(T));
  const int unit = items % vector == 0 ? vector : 1;
  const int reach = (Steps * Rad + unit - 1) / unit * unit;
  const int span = 32 * items;
  return {reach, items / unit, span, span - 2 * reach};
}

// The fused tile (a block's, or a warp's in registers) for a policy known only at run time (the
// host's view of the device).
template <int Rad, int Steps, class T>
__host__ __device__ constexpr std::size_t fused_tile(const stencil_policy& p) {
  return static_cast<std::size_t>(
      p.fused_in_registers
          ? fused_warp_shape_of<Rad, Steps, T>(p.items_per_thread).tile
          : fused_shape_of<Rad, Steps, T>(p.block_threads, p.items_per_thread).tile);
}

// The shared-memory layout of one fused tile: its shape, and `margin` more positions on each side
// of the span, read as taps by the outermost computed positions (loaded once, never recomputed).
template <int Rad, int Steps, class T, int BlockSize, int ItemsPerThread>
struct fused_layout {
  using base = stencil_layout<Rad, T, BlockSize, ItemsPerThread>;
  static constexpr fused_shape shape = fused_shape_of<Rad, Steps, T>(BlockSize, ItemsPerThread);
  static constexpr int vector = base::vector;
  static constexpr int unit = base::unit;
  static constexpr int margin = base::margin;
  static constexpr int reach = shape.reach;
  static constexpr int rounds = shape.rounds;
  static constexpr int span = shape.span;  // positions computed at each step
  static constexpr int tile = shape.tile;  // outputs per tile
  static constexpr int size = margin + span + margin;
};

template <class Tuning, int Rad, int Steps, class T, class Weights>
__global__ void __launch_bounds__(stencil_policy_here<Tuning, T, Rad>.block_threads)
    stencil_fused_kernel(const T* in, T* out, std::size_t rows, std::size_t n, std::size_t in_pitch,
                         std::size_t out_pitch, std::size_t tiles, Weights w, boundary b) {
  constexpr stencil_policy p = stencil_policy_here<Tuning, T, Rad>;
  wait_for_prior_grids();
  if constexpr (p.fused_in_registers) {
    __trap();  // never launched: the launcher takes stencil_fused_warp_kernel for this policy
  } else {
    constexpr int block = p.block_threads, items = p.items_per_thread;
    static_assert(block % 32 == 0 && block <= 1024 && items >= 1,
                  "stencil_policy: a whole number of warps, >= 1 item");
    using layout = fused_layout<Rad, Steps, T, block, items>;
    static_assert(layout::tile > 0, "stencil_policy: a tile longer than twice Steps x Rad");
    constexpr int unit = layout::unit;
    __shared__ alignas(16) T buffers[2][layout::size];
    const auto count = static_cast<std::int64_t>(n);
    const int t = static_cast<int>(threadIdx.x);
    for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
      const T* row_in = in + row * in_pitch;
      T* row_out = out + row * out_pitch;
      for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const auto begin = static_cast<std::int64_t>(tile * layout::tile);
        // Position of slot 0, and of the first computed slot (slot `margin`).
        const std::int64_t first = begin - layout::reach - layout::margin;
        const std::int64_t computed = begin - layout::reach;
        if (layout::size % layout::vector == 0 && first >= 0 && first + layout::size <= count &&
            aligned16(row_in + first)) {
          // Every load of the thread in flight before the first store (a strided loop's remainder
          // would go first, one load at a time, and the barrier below waits for the slowest warp).
          const auto* src = reinterpret_cast<const uint4*>(row_in + first);
          auto* dst = reinterpret_cast<uint4*>(buffers[0]);
          constexpr int words = layout::size / layout::vector;
          load_then_consume<(words + block - 1) / block>(
              [&](int k) { return t + k * block < words ? src[t + k * block] : uint4{}; },
              [&](int k, const uint4& v) {
                if (t + k * block < words) {
                  dst[t + k * block] = v;
                }
              });
        } else {
          for (int i = t; i < layout::size; i += block) {
            buffers[0][i] = load_with_boundary(row_in, first + i, count, b);
          }
        }
        // The second buffer's margins are read as taps, never written: give them defined values.
        for (int i = t; i < 2 * layout::margin; i += block) {
          buffers[1][i < layout::margin ? i : layout::span + i] = T(0);
        }
        __syncthreads();
        const bool touches_edge = computed < 0 || computed + layout::span > count;
#pragma unroll 1
        for (int step = 1; step <= Steps; ++step) {
          const T* src = buffers[(step - 1) & 1];
          T* dst = buffers[step & 1];
#pragma unroll
          for (int round = 0; round < layout::rounds; ++round) {
            const int u = t + round * block;
            T result[unit];
            stencil_unit<Rad, layout::margin>(src + u * unit, w, result);
            if constexpr (unit == layout::vector && unit > 1) {
              uint4 v;
              memcpy(&v, result, 16);
              reinterpret_cast<uint4*>(dst + layout::margin)[u] = v;
            } else {
#pragma unroll
              for (int k = 0; k < unit; ++k) {
                dst[layout::margin + u * unit + k] = result[k];
              }
            }
          }
          __syncthreads();
          if (step < Steps && touches_edge && b.mode != boundary_mode::periodic) {
            // Positions outside [0, n) again from this step's values (a position the rule maps
            // outside the computed span is never read by the tile's outputs).
            for (int i = t; i < layout::span; i += block) {
              const std::int64_t g = computed + i;
              if (g >= 0 && g < count) {
                continue;
              }
              if (b.mode == boundary_mode::constant) {
                dst[layout::margin + i] = static_cast<T>(b.value);
              } else {
                const std::int64_t q = boundary_index(g, count, b.mode) - computed;
                if (q >= 0 && q < layout::span) {
                  dst[layout::margin + i] = dst[layout::margin + q];
                }
              }
            }
            __syncthreads();
          }
        }
        const T* result = buffers[Steps & 1] + layout::margin + layout::reach;
        if (layout::tile % layout::vector == 0 && begin + layout::tile <= count &&
            aligned16(row_out + begin)) {
          const auto* src = reinterpret_cast<const uint4*>(result);
          auto* dst = reinterpret_cast<uint4*>(row_out + begin);
          for (int i = t; i < layout::tile / layout::vector; i += block) {
            dst[i] = src[i];
          }
        } else {
          for (int i = t; i < layout::tile && begin + i < count; i += block) {
            row_out[begin + i] = result[i];
          }
        }
        __syncthreads();  // the next tile overwrites the buffers
      }
    }
  }
}

// boundary_index for a position g outside [0, n) by at most `within` positions, without a 64-bit
// division: one wrap or reflection where n is longer than that, else in 32-bit arithmetic (n and g
// are then small).
__device__ __forceinline__ std::int64_t near_boundary_index(std::int64_t g, std::int64_t n,
                                                            boundary_mode mode, int within) {
  if (n > within) {
    const bool before = g < 0;
    if (mode == boundary_mode::clamp) {
      return before ? 0 : n - 1;
    }
    if (mode == boundary_mode::periodic) {
      return before ? g + n : g - n;
    }
    return before ? -g : 2 * (n - 1) - g;  // mirror
  }
  return boundary_index_as<int>(static_cast<int>(g), static_cast<int>(n), mode);
}

// x[i / Unit][i % Unit] = value for a run-time i where `set` (registers cannot be indexed:
// selects).
template <int Units, int Unit, class T>
__device__ __forceinline__ void put_element(T (&x)[Units][Unit], int i, bool set, T value) {
#pragma unroll
  for (int k = 0; k < Units * Unit; ++k) {
    if (set && k == i) {
      x[k / Unit][k % Unit] = value;
    }
  }
}

// c ? a : b by the hardware's select, which the compiler cannot turn into a branch: a choice that
// depends on the lane, left to the compiler, may split the step loop into a copy per group of
// lanes, and the warp would reach its shuffles diverged (serialised, and slow).
template <class T>
__device__ __forceinline__ T opaque_select(bool c, const T& a, const T& b) {
  constexpr int words = sizeof(T) / 4;
  static_assert(sizeof(T) % 4 == 0, "opaque_select moves 32-bit words");
  unsigned int wa[words], wb[words];
  memcpy(wa, &a, sizeof(T));
  memcpy(wb, &b, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) {
    asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %3, 0;\n\tselp.b32 %0, %1, %2, p;\n\t}"
        : "=r"(wa[i])
        : "r"(wa[i]), "r"(wb[i]), "r"(static_cast<unsigned int>(c)));
  }
  T out;
  memcpy(&out, wa, sizeof(T));
  return out;
}

// Where element i of a lane's registers (x[i / Unit][i % Unit]) lies in a warp's span: unit
// lane + 32 j, or (Contiguous) unit lane x Units + j, of j = i / Unit.
template <bool Contiguous, int Units, int Unit>
__device__ __forceinline__ int fused_warp_offset(int lane, int i) {
  return Contiguous ? lane * Units * Unit + i : (lane + 32 * (i / Unit)) * Unit + i % Unit;
}

// The halo of a warp's units in registers: element i of the Rad before unit `v` (lane - d's, d =
// the units back), or after it (lane + d's), each lane sending its own unit (fused kernel below).
template <int Rad, int Unit, class T>
__device__ __forceinline__ void fused_warp_halo_before(const T (&v)[Unit], int lane,
                                                       T (&halo)[Rad]) {
#pragma unroll
  for (int i = 0; i < Rad; ++i) {
    const int d = (Rad - i + Unit - 1) / Unit;
    halo[i] = shuffle_from(v[i - Rad + d * Unit], (lane - d) & 31);
  }
}
template <int Rad, int Unit, class T>
__device__ __forceinline__ void fused_warp_halo_after(const T (&v)[Unit], int lane,
                                                      T (&halo)[Rad]) {
#pragma unroll
  for (int i = 0; i < Rad; ++i) {
    halo[i] = shuffle_from(v[i % Unit], (lane + 1 + i / Unit) & 31);
  }
}

// A warp's span in registers (x[j][e] at position first + fused_warp_offset(lane, j x Unit + e)):
// each position outside [0, n) set by the rule `b`, the constant or the value of the position the
// rule maps it to. Loading (Load true): that position's input from `in`. After a step (Load false;
// not for the periodic rule, whose halos are loaded wrapped): its value from this step, where it
// lies in the span (a position mapped outside it is never read by the tile's outputs); the source
// sits in a lane and unit known only at run time, so every element of the source lane comes by
// shuffles and the one it names is kept (sources lie inside [0, n) and are never set: the order
// does not matter). One element of the lanes at a time, a loop not unrolled: only warps at a
// signal's ends come here.
template <bool Load, bool Contiguous, int Units, int Unit, class T>
__device__ __forceinline__ void fused_warp_rule(T (&x)[Units][Unit], const T* in,
                                                std::int64_t first, std::int64_t n, int span,
                                                const boundary& b, int lane) {
#pragma unroll 1
  for (int i = 0; i < Units * Unit; ++i) {
    const std::int64_t g = first + fused_warp_offset<Contiguous, Units, Unit>(lane, i);
    const bool outside = g < 0 || g >= n;
    if (!__any_sync(full_warp, outside)) {
      continue;
    }
    const bool constant = b.mode == boundary_mode::constant;
    const std::int64_t q = outside && !constant ? near_boundary_index(g, n, b.mode, span) : 0;
    T got = static_cast<T>(b.value);
    if constexpr (Load) {
      if (outside && !constant) {
        got = in[q];
      }
      put_element(x, i, outside, got);
    } else {
      const std::int64_t rel = q - first;
      const bool set = outside && (constant || (rel >= 0 && rel < span));
      const bool shuffled = set && !constant;
      const auto r = static_cast<int>(rel);  // within the span where shuffled
      const int source = shuffled ? (Contiguous ? r / (Units * Unit) : r / Unit % 32) : lane;
      const int element =
          shuffled ? (Contiguous ? r % (Units * Unit) : r / Unit / 32 * Unit + r % Unit) : -1;
#pragma unroll
      for (int k = 0; k < Units * Unit; ++k) {
        const T v = shuffle_from(x[k / Unit][k % Unit], source);
        if (k == element) {
          got = v;
        }
      }
      put_element(x, i, set, got);
    }
  }
}

// A warp's stage in shared memory for turning its span's 16-byte units between the coalesced order
// (unit lane + 32 j in a lane's register j) and runs (unit lane x Units + j), Units x 32 units a
// warp. Unit u sits at u ^ ((u / 8) % 8): with 4 units a lane, the eight lanes of a 128-byte phase
// hit eight different 16-byte bank groups both ways (units l + 32 j: l ^ 4 j % 8; units 4 l + j:
// distinct in l).
template <int Warps, int Units>
struct fused_warp_stage {
  static constexpr int size = 32 * Units;
  uint4* units;  // this warp's

  __device__ explicit fused_warp_stage(int warp) {
    __shared__ uint4 all[Warps * size];
    units = all + warp * size;
  }
  __device__ static int slot(int u) { return u ^ ((u >> 3) & 7); }
  // The lane's 16-byte units x[j], in place: coalesced in (unit lane + 32 j), runs out (unit
  // lane x Units + j); or the other way (ToRuns false).
  template <bool ToRuns, class T, int Unit>
  __device__ void turn(T (&x)[Units][Unit], int lane) {
    static_assert(sizeof(T) * Unit == 16, "a unit is a 16-byte word");
#pragma unroll
    for (int j = 0; j < Units; ++j) {
      uint4 word;
      memcpy(&word, x[j], 16);
      units[slot(ToRuns ? lane + 32 * j : lane * Units + j)] = word;
    }
    __syncwarp();
#pragma unroll
    for (int j = 0; j < Units; ++j) {
      const uint4 word = units[slot(ToRuns ? lane * Units + j : lane + 32 * j)];
      memcpy(x[j], &word, 16);
    }
    __syncwarp();  // the stage is written again by the next turn
  }
};

// One position's next value from its window (window[0] the position Rad before it), as
// apply_stencil1d computes it: a user update, or the taps from 0 in order by fused multiply-adds
// (stencil_unit).
template <int Rad, class Weights, class T>
__device__ __forceinline__ T fused_point(const Weights& w, const T* window) {
  if constexpr (is_stencil_update<Weights>) {
    return stencil_update_point<T>(w, [&](int dx) { return window[Rad + dx]; });
  } else {
    T acc = T(0);
#pragma unroll
    for (int r = 0; r <= 2 * Rad; ++r) {
      acc = fma(static_cast<T>(w[r]), window[r], acc);
    }
    return acc;
  }
}

// Each warp a tile of 32 x items, stepped in registers (the file's header). Tiles along x, a
// block's warps on consecutive tiles (a grid-stride loop past 2^31 - 1 blocks), rows along y.
template <class Tuning, int Rad, int Steps, class T, class Weights>
__global__ void __launch_bounds__(stencil_policy_here<Tuning, T, Rad>.block_threads,
                                  stencil_policy_here<Tuning, T, Rad>.min_blocks)
    stencil_fused_warp_kernel(const T* in, T* out, std::size_t rows, std::size_t n,
                              std::size_t in_pitch, std::size_t out_pitch, std::size_t tiles,
                              Weights w, boundary b) {
  constexpr stencil_policy p = stencil_policy_here<Tuning, T, Rad>;
  wait_for_prior_grids();
  if constexpr (!p.fused_in_registers) {
    __trap();  // never launched: the launcher takes stencil_fused_kernel for this policy
  } else {
    static_assert(p.block_threads % 32 == 0 && p.block_threads <= 1024 && p.items_per_thread >= 1,
                  "stencil_policy: a whole number of warps, >= 1 item");
    constexpr fused_shape shape = fused_warp_shape_of<Rad, Steps, T>(p.items_per_thread);
    static_assert(shape.tile > 0,
                  "stencil_policy: a warp's 32 x items longer than 2 x Steps x Rad");
    constexpr int vector = 16 / static_cast<int>(sizeof(T));
    constexpr int units = shape.rounds;                   // a lane's units
    constexpr int unit = p.items_per_thread / units;      // elements a unit
    constexpr int reach_units = (Rad + unit - 1) / unit;  // units a halo spans
    static_assert(reach_units < 32, "stencil_policy: a halo within the warp's neighbouring lanes");
    constexpr bool contiguous = p.fused_contiguous_lanes;
    constexpr int items = units * unit;
    // Runs of 16-byte units load and store coalesced through a stage in shared memory.
    constexpr bool staged = contiguous && unit == vector;
    constexpr bool stored_as_runs = contiguous && !staged;  // else turned back before the stores
    constexpr int warps = p.block_threads / 32;
    const int lane = lane_id();
    const auto warp = static_cast<std::size_t>(threadIdx.x / 32);
    const auto count = static_cast<std::int64_t>(n);
    for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
      const T* row_in = in + row * in_pitch;
      T* row_out = out + row * out_pitch;
      for (std::size_t tile = blockIdx.x * std::size_t{warps} + warp; tile < tiles;
           tile += std::size_t{gridDim.x} * warps) {
        const auto begin = static_cast<std::int64_t>(tile * shape.tile);
        const std::int64_t first = begin - shape.reach;  // the position of lane 0's first unit
        const bool touches_edge = first < 0 || first + shape.span > count;
        // x[j][e]: position first + fused_warp_offset(lane, j x unit + e).
        T x[units][unit];
        if (unit == vector && !touches_edge && aligned16(row_in + first)) {
          const auto* src = reinterpret_cast<const uint4*>(row_in + first);
          load_then_consume<units>([&](int j) { return src[lane + 32 * j]; },
                                   [&](int j, const uint4& v) { memcpy(x[j], &v, 16); });
          if constexpr (staged) {
            fused_warp_stage<warps, units>(static_cast<int>(warp)).template turn<true>(x, lane);
          }
        } else {
          // Element by element, every load in flight; positions outside [0, n) by the rule after.
#pragma unroll
          for (int j = 0; j < units; ++j) {
#pragma unroll
            for (int e = 0; e < unit; ++e) {
              const std::int64_t g =
                  first + fused_warp_offset<contiguous, units, unit>(lane, j * unit + e);
              x[j][e] = g >= 0 && g < count ? row_in[g] : T(0);
            }
          }
          if (touches_edge) {
            fused_warp_rule<true, contiguous>(x, row_in, first, count, shape.span, b, lane);
          }
        }
#pragma unroll 1
        for (int step = 1; step <= Steps; ++step) {
          if constexpr (contiguous) {
            // The lane's run with its halos: Rad elements of the lanes before (element i lies d
            // lanes back, element d x items - Rad + i of that lane's run), the run, Rad of the
            // lanes after (element i in lane + 1 + i / items, element i % items). Every lane sends
            // the same element of its own run (no choice that depends on the lane). Lanes at the
            // span's ends get don't-care values (the reach's outer part).
            T win[items + 2 * Rad];
#pragma unroll
            for (int i = 0; i < items; ++i) {
              win[Rad + i] = x[i / unit][i % unit];
            }
#pragma unroll
            for (int i = 0; i < Rad; ++i) {
              const int d = (Rad - i + items - 1) / items;
              win[i] = shuffle_from(win[d * items + i], (lane - d) & 31);
              win[Rad + items + i] =
                  shuffle_from(win[Rad + i % items], (lane + 1 + i / items) & 31);
            }
#pragma unroll
            for (int i = 0; i < items; ++i) {
              x[i / unit][i % unit] = fused_point<Rad>(w, win + i);
            }
          } else {
            // A unit's window: Rad elements of the units before it, its own, Rad after. Element i
            // of the halo before lies d units back, in lane - d; each lane shuffles its own unit j
            // (no choice that depends on the lane before a shuffle), so the first d lanes receive
            // the unit of round j - 1 they need one round late, and keep it from there; likewise
            // the last lanes' halo after comes one round early. Every shuffle of a unit precedes
            // its update, so the units are updated in place. Lanes at the span's ends get
            // don't-care values (the reach's outer part).
            T before_prev[Rad], after_cur[Rad];
            fused_warp_halo_after<Rad, unit>(x[0], lane, after_cur);
#pragma unroll
            for (int j = 0; j < units; ++j) {
              T before_cur[Rad], after_next[Rad];
              fused_warp_halo_before<Rad, unit>(x[j], lane, before_cur);
              if (j + 1 < units) {
                fused_warp_halo_after<Rad, unit>(x[j + 1 < units ? j + 1 : j], lane, after_next);
              } else {
                memcpy(after_next, after_cur, sizeof(after_next));
              }
              T win[unit + 2 * Rad];
#pragma unroll
              for (int i = 0; i < Rad; ++i) {
                const int d = (Rad - i + unit - 1) / unit, d_after = 1 + i / unit;
                win[i] =
                    j > 0 ? opaque_select(lane < d, before_prev[i], before_cur[i]) : before_cur[i];
                win[Rad + unit + i] =
                    j + 1 < units ? opaque_select(lane >= 32 - d_after, after_next[i], after_cur[i])
                                  : after_cur[i];
                before_prev[i] = before_cur[i];
                after_cur[i] = after_next[i];
              }
#pragma unroll
              for (int e = 0; e < unit; ++e) {
                win[Rad + e] = x[j][e];
              }
#pragma unroll
              for (int k = 0; k < unit; ++k) {
                x[j][k] = fused_point<Rad>(w, win + k);
              }
            }
          }
          if (step < Steps && touches_edge && b.mode != boundary_mode::periodic) {
            fused_warp_rule<false, contiguous>(x, row_in, first, count, shape.span, b, lane);
          }
        }
        // Runs back in the coalesced order.
        if constexpr (staged) {
          fused_warp_stage<warps, units>(static_cast<int>(warp)).template turn<false>(x, lane);
        }
        // The tile: units from reach to span - reach, 16-byte words where whole and aligned.
        const bool vector_store = unit == vector && aligned16(row_out + begin);
#pragma unroll
        for (int j = 0; j < units; ++j) {
          const int offset = fused_warp_offset<stored_as_runs, units, unit>(lane, j * unit);
          if (offset < shape.reach || offset >= shape.span - shape.reach) {
            continue;
          }
          const std::int64_t g = first + offset;
          if (vector_store && g + unit <= count) {
            uint4 v;
            memcpy(&v, x[j], 16);
            *reinterpret_cast<uint4*>(row_out + g) = v;
          } else {
#pragma unroll
            for (int e = 0; e < unit; ++e) {
              if (g + e < count) {
                row_out[g + e] = x[j][e];
              }
            }
          }
        }
      }
    }
  }
}

// Tiles along x (a grid-stride loop past 2^31 - 1 of them), rows along y (past 65535 likewise).
template <class Tuning, int Rad, int Steps, class T, class Weights>
cudaError_t launch_stencil_fused(const T* in, T* out, std::size_t rows, std::size_t n,
                                 std::size_t in_pitch, std::size_t out_pitch,
                                 const Weights& weights, const boundary& b, cudaStream_t stream) {
  device_facts facts;
  GPUPRIMS_RETURN_IF_ERROR(current_device_facts(facts));
  const stencil_policy p = stencil_policy_for<Tuning, T, Rad>(facts.target_arch);
  const std::size_t tile = fused_tile<Rad, Steps, T>(p);
  const std::size_t tiles = ceil_div(n, tile);
  if (p.fused_in_registers) {
    return launch<stencil_fused_warp_kernel<Tuning, Rad, Steps, T, Weights>>(
        dim3(grid_x(ceil_div(tiles, static_cast<std::size_t>(p.block_threads / 32))),
             grid_yz(rows)),
        dim3(p.block_threads), stream, dependent_launch(p.dependent_launch, facts), in, out, rows,
        n, in_pitch, out_pitch, tiles, weights, b);
  }
  return launch<stencil_fused_kernel<Tuning, Rad, Steps, T, Weights>>(
      dim3(grid_x(tiles), grid_yz(rows)), dim3(p.block_threads), stream,
      dependent_launch(p.dependent_launch, facts), in, out, rows, n, in_pitch, out_pitch, tiles,
      weights, b);
}

}  // namespace gpuprims::detail

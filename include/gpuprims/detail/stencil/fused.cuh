// apply_stencil1d_fused's kernel: Steps time steps of a 1D stencil in one pass over memory. Each
// block loads its tile with a halo of Steps x Rad on each side (rounded up to 16-byte vectors),
// applies the stencil Steps times in shared memory (two buffers, in turn), every step over the
// whole loaded span (the halo's outer part turns to don't-care values step by step, never read by
// the tile's outputs), and stores the tile. Each output adds its taps exactly as apply_stencil1d
// does (stencil_unit), and positions outside [0, n) are set again after each step by the boundary
// rule from that step's values, so the result equals Steps calls of apply_stencil1d bit for bit.
// Periodic halos are loaded wrapped and need no resetting: a wrapped position evolves exactly as
// the position it copies.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/stencil/kernels.cuh>
#include <gpuprims/detail/stencil/tile.cuh>
#include <gpuprims/tuning/stencil.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

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

// The fused tile's tile for a policy known only at run time (the host's view of the device).
template <int Rad, int Steps, class T>
__host__ __device__ constexpr std::size_t fused_tile(const stencil_policy& p) {
  return static_cast<std::size_t>(
      fused_shape_of<Rad, Steps, T>(p.block_threads, p.items_per_thread).tile);
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
  constexpr int block = p.block_threads, items = p.items_per_thread;
  static_assert(block % 32 == 0 && block <= 1024 && items >= 1,
                "stencil_policy: a whole number of warps, >= 1 item");
  using layout = fused_layout<Rad, Steps, T, block, items>;
  static_assert(layout::tile > 0, "stencil_policy: a tile longer than twice Steps x Rad");
  constexpr int unit = layout::unit;
  __shared__ alignas(16) T buffers[2][layout::size];
  const auto count = static_cast<std::int64_t>(n);
  const int t = static_cast<int>(threadIdx.x);
  wait_for_prior_grids();
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
  return launch<stencil_fused_kernel<Tuning, Rad, Steps, T, Weights>>(
      dim3(grid_x(tiles), grid_yz(rows)), dim3(p.block_threads), stream,
      dependent_launch(p.dependent_launch, facts), in, out, rows, n, in_pitch, out_pitch, tiles,
      weights, b);
}

}  // namespace gpuprims::detail

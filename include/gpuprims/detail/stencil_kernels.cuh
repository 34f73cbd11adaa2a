// Internals of stencil1d: boundary rules, the shared-memory tile (load, window, store) and the
// launch kernels of the ladder.
#pragma once

#include <gpuprims/detail/config.cuh>
#include <gpuprims/detail/dependent_launch.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpuprims {

/// What a stencil reads at positions outside [0, n).
enum class boundary_mode {
  constant,  ///< a fixed value (zero by default)
  clamp,     ///< the nearest end: in[0] before the start, in[n - 1] past the end
  periodic,  ///< in[i mod n]
  mirror,    ///< reflected about the end elements without repeating them: in[-1] = in[1], in[n] = in[n - 2]
};

/// A boundary rule: boundary::clamp(), boundary::periodic(), boundary::mirror() or
/// boundary::constant(v); the default is constant zero.
struct boundary {
  boundary_mode mode = boundary_mode::constant;
  double value = 0;  ///< for constant; converted to the element type

  static constexpr boundary constant(double v = 0) { return {boundary_mode::constant, v}; }
  static constexpr boundary clamp() { return {boundary_mode::clamp, 0}; }
  static constexpr boundary periodic() { return {boundary_mode::periodic, 0}; }
  static constexpr boundary mirror() { return {boundary_mode::mirror, 0}; }
};

namespace detail {

// The position in [0, n) that position g (outside it) reads under a non-constant rule. Exact for
// any n >= 1, also when g is several lengths away (n < Rad): periodic and mirror wrap as often as needed.
__host__ __device__ inline std::int64_t boundary_index(std::int64_t g, std::int64_t n, boundary_mode mode) {
  if (mode == boundary_mode::clamp) {
    return g < 0 ? 0 : (g >= n ? n - 1 : g);
  }
  if (mode == boundary_mode::periodic) {
    const std::int64_t r = g % n;
    return r < 0 ? r + n : r;
  }
  if (n == 1) {  // mirror of one element
    return 0;
  }
  const std::int64_t period = 2 * (n - 1);
  std::int64_t r = g % period;
  r = r < 0 ? r + period : r;
  return r < n ? r : period - r;
}

template <class T>
__device__ __forceinline__ T load_with_boundary(const T* in, std::int64_t g, std::int64_t n, const boundary& b) {
  if (g >= 0 && g < n) {
    return in[g];
  }
  if (b.mode == boundary_mode::constant) {
    return static_cast<T>(b.value);
  }
  return in[boundary_index(g, n, b.mode)];
}

// The shared-memory layout of one tile: `margin` elements before and after the tile (the halo,
// Rad of them, rounded up to a 16-byte vector so the tile itself starts 16-byte aligned and every
// window can be read with 16-byte loads).
template <int Rad, class T, int BlockSize, int ItemsPerThread>
struct stencil_layout {
  static constexpr int vector = 16 / static_cast<int>(sizeof(T));
  // Threads work in units of one vector (vectorised) or one element (ItemsPerThread not a multiple).
  static constexpr bool vectorized = ItemsPerThread % vector == 0;
  static constexpr int unit = vectorized ? vector : 1;
  static constexpr int units_per_thread = ItemsPerThread / unit;
  static constexpr int margin = (Rad + vector - 1) / vector * vector;
  static constexpr int tile = BlockSize * ItemsPerThread;
  static constexpr int size = margin + tile + margin;
};

template <class T>
__device__ __forceinline__ bool aligned16(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Fills data[margin - Rad, margin + tile + Rad) with in[begin - Rad, begin + tile + Rad), the
// boundary rule supplying what lies outside [0, n).
template <int Rad, int BlockSize, int ItemsPerThread, class T>
__device__ __forceinline__ void stencil_load(T* data, const T* in, std::int64_t n, std::int64_t begin,
                                             const boundary& b) {
  using layout = stencil_layout<Rad, T, BlockSize, ItemsPerThread>;
  const int t = static_cast<int>(threadIdx.x);
  if (layout::vectorized && begin + layout::tile <= n && aligned16(in + begin)) {
    // A whole tile inside the array: one 16-byte load per unit, all of a thread's loads in flight
    // before the first shared-memory store; the 2 x Rad halo elements one per thread.
    using word = uint4;
    const auto* src = reinterpret_cast<const word*>(in + begin);
    auto* dst = reinterpret_cast<word*>(data + layout::margin);
    word v[layout::units_per_thread];
#pragma unroll
    for (int j = 0; j < layout::units_per_thread; ++j) {
      v[j] = src[t + j * BlockSize];
    }
#pragma unroll
    for (int j = 0; j < layout::units_per_thread; ++j) {
      dst[t + j * BlockSize] = v[j];
    }
    if (t < 2 * Rad) {
      const int slot = t < Rad ? layout::margin - Rad + t : layout::margin + layout::tile + (t - Rad);
      data[slot] = load_with_boundary(in, begin - layout::margin + slot, n, b);
    }
  } else {
    for (int i = t; i < layout::tile + 2 * Rad; i += BlockSize) {
      data[layout::margin - Rad + i] = load_with_boundary(in, begin - Rad + i, n, b);
    }
  }
}

// out[begin + k] for the k of this thread's units, from the shared tile: each unit reads its window
// of unit + 2 x Rad elements (16-byte loads when vectorised: consecutive threads read consecutive
// 16-byte words, no bank conflicts) and accumulates with fused multiply-adds, weight 0 first.
template <int Rad, int BlockSize, int ItemsPerThread, class T, class Weights>
__device__ __forceinline__ void stencil_compute_store(const T* data, T* out, std::int64_t n, std::int64_t begin,
                                                      const Weights& w) {
  using layout = stencil_layout<Rad, T, BlockSize, ItemsPerThread>;
  constexpr int unit = layout::unit;
  const int t = static_cast<int>(threadIdx.x);
  const bool vector_store = layout::vectorized && begin + layout::tile <= n && aligned16(out + begin);
#pragma unroll
  for (int j = 0; j < layout::units_per_thread; ++j) {
    const int first = (t + j * BlockSize) * unit;  // the unit's first output, relative to begin
    T result[unit];
    if constexpr (layout::vectorized) {
      // The window data[first, first + unit + 2 margin), one 16-byte word at a time: each element
      // goes into the outputs whose taps reach it, so only one word and the unit's accumulators
      // are live (not the whole window: Rad 16 would hold 36 floats and halve the occupancy).
      // Each output still adds its taps in order, weight 0 first.
      constexpr int words = (unit + 2 * layout::margin) / unit;
#pragma unroll
      for (int k = 0; k < unit; ++k) {
        result[k] = T(0);
      }
#pragma unroll
      for (int word = 0; word < words; ++word) {
        const uint4 v = reinterpret_cast<const uint4*>(data + first)[word];
        T x[unit];
        memcpy(x, &v, 16);
#pragma unroll
        for (int e = 0; e < unit; ++e) {
#pragma unroll
          for (int k = 0; k < unit; ++k) {
            const int r = word * unit + e - (layout::margin - Rad) - k;  // the tap of output k
            if (r >= 0 && r <= 2 * Rad) {
              result[k] = fma(static_cast<T>(w[r]), x[e], result[k]);
            }
          }
        }
      }
    } else {
      T acc = T(0);
#pragma unroll
      for (int r = 0; r <= 2 * Rad; ++r) {
        acc = fma(static_cast<T>(w[r]), data[layout::margin - Rad + first + r], acc);
      }
      result[0] = acc;
    }
    if (vector_store) {
      uint4 v;
      memcpy(&v, result, 16);
      reinterpret_cast<uint4*>(out + begin)[first / unit] = v;
    } else {
#pragma unroll
      for (int k = 0; k < unit; ++k) {
        if (begin + first + k < n) {
          out[begin + first + k] = result[k];
        }
      }
    }
  }
}

// The naive rung: one output per thread, its 2 x Rad + 1 inputs read from global memory (the L1
// and L2 caches catch the reuse between neighbours).
template <int Rad, int BlockSize, class T, class Weights>
__global__ void __launch_bounds__(BlockSize)
    stencil_naive_kernel(const T* in, T* out, std::size_t n, std::size_t rows, std::size_t in_pitch,
                         std::size_t out_pitch, Weights w, boundary b) {
  const auto count = static_cast<std::int64_t>(n);
  wait_for_prior_grids();
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const T* in_row = in + row * in_pitch;
    T* out_row = out + row * out_pitch;
    for (std::int64_t i = blockIdx.x * std::int64_t{BlockSize} + threadIdx.x; i < count;
         i += std::int64_t{gridDim.x} * BlockSize) {
      T acc = T(0);
#pragma unroll
      for (int r = 0; r <= 2 * Rad; ++r) {
        acc = fma(static_cast<T>(w[r]), load_with_boundary(in_row, i - Rad + r, count, b), acc);
      }
      out_row[i] = acc;
    }
  }
}

}  // namespace detail
}  // namespace gpuprims

// Internals of the 1D stencil's shared tile, used by stencil1d and the launcher's kernel: the
// boundary rules, the tile's layout, its load, and the compute over each thread's windows.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace gpuprims::detail {

// The position in [0, n) that position g (outside it) reads under a non-constant rule. Exact for
// any n >= 1, also when g is several lengths away (n < Rad): periodic and mirror wrap as often as
// needed. In the integer type I: int where g and n fit spares a 64-bit division.
template <class I>
__host__ __device__ inline I boundary_index_as(I g, I n, boundary_mode mode) {
  if (mode == boundary_mode::clamp) {
    return g < 0 ? 0 : (g >= n ? n - 1 : g);
  }
  if (mode == boundary_mode::periodic) {
    const I r = g % n;
    return r < 0 ? r + n : r;
  }
  if (n == 1) {  // mirror of one element
    return 0;
  }
  const I period = 2 * (n - 1);
  I r = g % period;
  r = r < 0 ? r + period : r;
  return r < n ? r : period - r;
}

__host__ __device__ inline std::int64_t boundary_index(std::int64_t g, std::int64_t n,
                                                       boundary_mode mode) {
  return boundary_index_as<std::int64_t>(g, n, mode);
}

template <class T>
__device__ __forceinline__ T load_with_boundary(const T* in, std::int64_t g, std::int64_t n,
                                                const boundary& b) {
  if (g >= 0 && g < n) {
    return in[g];
  }
  if (b.mode == boundary_mode::constant) {
    return static_cast<T>(b.value);
  }
  return in[boundary_index(g, n, b.mode)];
}

// f(std::integral_constant<int, U>) for each U of the sequence, in order: a loop whose index is a
// compile-time constant in its body (register arrays indexed by it stay in registers).
template <int... U, class F>
__device__ __forceinline__ void each_of(std::integer_sequence<int, U...>, F&& f) {
  (f(std::integral_constant<int, U>{}), ...);
}

// The radius a weights type declares (stencil_weights<T, R>::radius, or a user type's own).
template <class Weights>
inline constexpr int weights_radius = Weights::radius;

// Whether a step is a user's function of the neighbourhood (gpuprims::stencil_update), not weights.
template <class Step>
inline constexpr bool is_stencil_update = false;
template <int Rad, class F>
inline constexpr bool is_stencil_update<stencil_update<Rad, F>> = true;

// A user update's value at one point, `at` giving its neighbours: the function's result in T.
template <class T, class Step, class At>
__host__ __device__ inline T stencil_update_point(const Step& step, const At& at) {
  return static_cast<T>(step.f(at));
}

// The shared-memory layout of one tile: `margin` elements before and after the tile (the halo,
// Rad of them, rounded up to a 16-byte vector so the tile itself starts 16-byte aligned and every
// window can be read with 16-byte loads).
template <int Rad, class T, int BlockSize, int ItemsPerThread>
struct stencil_layout {
  static constexpr int vector = 16 / static_cast<int>(sizeof(T));
  // Threads work in units of one vector (vectorised) or one element (ItemsPerThread not a
  // multiple).
  static constexpr bool vectorized = ItemsPerThread % vector == 0;
  static constexpr int unit = vectorized ? vector : 1;
  static constexpr int units_per_thread = ItemsPerThread / unit;
  static constexpr int margin = (Rad + vector - 1) / vector * vector;
  static constexpr int tile = BlockSize * ItemsPerThread;
  static constexpr int size = margin + tile + margin;

  // The offset in the tile of this thread's unit j.
  __device__ static int unit_offset(int j) {
    return (static_cast<int>(threadIdx.x) + j * BlockSize) * unit;
  }
};

template <class T>
__device__ __forceinline__ bool aligned16(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Fills data[margin - Rad, margin + tile + Rad) with in[begin - Rad, begin + tile + Rad), the
// boundary rule supplying what lies outside [0, n).
template <int Rad, int BlockSize, int ItemsPerThread, class T>
__device__ __forceinline__ void stencil_load(T* data, const T* in, std::int64_t n,
                                             std::int64_t begin, const boundary& b) {
  using layout = stencil_layout<Rad, T, BlockSize, ItemsPerThread>;
  const int t = static_cast<int>(threadIdx.x);
  if (layout::vectorized && begin + layout::tile <= n && aligned16(in + begin)) {
    // A whole tile inside the array: one 16-byte load per unit, all of a thread's loads in flight
    // before the first shared-memory store; the 2 x Rad halo elements one per thread.
    const auto* src = reinterpret_cast<const uint4*>(in + begin);
    auto* dst = reinterpret_cast<uint4*>(data + layout::margin);
    load_then_consume<layout::units_per_thread>(
        [&](int j) { return src[t + j * BlockSize]; },
        [&](int j, const uint4& v) { dst[t + j * BlockSize] = v; });
    if (t < 2 * Rad) {
      const int slot =
          t < Rad ? layout::margin - Rad + t : layout::margin + layout::tile + (t - Rad);
      data[slot] = load_with_boundary(in, begin - layout::margin + slot, n, b);
    }
  } else {
    for (int i = t; i < layout::tile + 2 * Rad; i += BlockSize) {
      data[layout::margin - Rad + i] = load_with_boundary(in, begin - Rad + i, n, b);
    }
  }
}

// The `Unit` outputs whose window starts at `window` (the first output's position less `Margin`):
// a vector of outputs read with 16-byte loads (Unit == 16 / sizeof(T); each element goes into the
// outputs whose taps reach it, so only one word and the unit's accumulators are live, not the
// whole window: Rad 16 would hold 36 floats and halve the occupancy), or one output read element
// by element. Each output starts at 0 and adds its taps in order, weight 0 first, with fused
// multiply-adds: apply_stencil1d and apply_stencil1d_fused share it, and so their bits. A user
// update (stencil_update) is called once per output on the window's elements.
template <int Rad, int Margin, class T, int Unit, class Weights>
__device__ __forceinline__ void stencil_unit(const T* window, const Weights& w, T (&result)[Unit]) {
  if constexpr (is_stencil_update<Weights>) {
#pragma unroll
    for (int k = 0; k < Unit; ++k) {
      result[k] = stencil_update_point<T>(w, [&](int dx) { return window[Margin + k + dx]; });
    }
  } else if constexpr (Unit == 16 / static_cast<int>(sizeof(T))) {
    constexpr int words = (Unit + 2 * Margin) / Unit;
#pragma unroll
    for (int k = 0; k < Unit; ++k) {
      result[k] = T(0);
    }
#pragma unroll
    for (int word = 0; word < words; ++word) {
      const uint4 v = reinterpret_cast<const uint4*>(window)[word];
      T x[Unit];
      memcpy(x, &v, 16);
#pragma unroll
      for (int e = 0; e < Unit; ++e) {
#pragma unroll
        for (int k = 0; k < Unit; ++k) {
          const int r = word * Unit + e - (Margin - Rad) - k;  // the tap of output k
          if (r >= 0 && r <= 2 * Rad) {
            result[k] = fma(static_cast<T>(w[r]), x[e], result[k]);
          }
        }
      }
    }
  } else {
    static_assert(Unit == 1, "a unit is one output or one 16-byte vector of outputs");
    T acc = T(0);
#pragma unroll
    for (int r = 0; r <= 2 * Rad; ++r) {
      acc = fma(static_cast<T>(w[r]), window[Margin - Rad + r], acc);
    }
    result[0] = acc;
  }
}

// The outputs of this thread's units, one unit at a time: consume(j, result) gets unit j's
// `unit` outputs, at tile offset layout::unit_offset(j). Each unit reads its window of unit + 2 x
// margin elements (16-byte loads when vectorised: consecutive threads read consecutive 16-byte
// words, no bank conflicts).
template <int Rad, int BlockSize, int ItemsPerThread, class T, class Weights, class Consume>
__device__ __forceinline__ void stencil_compute(const T* data, const Weights& w,
                                                Consume&& consume) {
  using layout = stencil_layout<Rad, T, BlockSize, ItemsPerThread>;
#pragma unroll
  for (int j = 0; j < layout::units_per_thread; ++j) {
    T result[layout::unit];
    stencil_unit<Rad, layout::margin>(data + layout::unit_offset(j), w, result);
    consume(j, result);
  }
}

// One tile: out[begin, begin + tile) (clipped to n) from in[begin - Rad, begin + tile + Rad). Whole
// tiles of 16-byte-aligned pointers store 16-byte vectors. Every thread of the block calls it.
template <int Rad, int BlockSize, int ItemsPerThread, class T, class Weights>
__device__ __forceinline__ void stencil_tile(T* data, const T* in, T* out, std::int64_t n,
                                             std::int64_t begin, const Weights& w,
                                             const boundary& b) {
  using layout = stencil_layout<Rad, T, BlockSize, ItemsPerThread>;
  constexpr int unit = layout::unit;
  stencil_load<Rad, BlockSize, ItemsPerThread>(data, in, n, begin, b);
  __syncthreads();
  const bool vector_store =
      layout::vectorized && begin + layout::tile <= n && aligned16(out + begin);
  stencil_compute<Rad, BlockSize, ItemsPerThread>(data, w, [&](int j, const T(&result)[unit]) {
    const int first = layout::unit_offset(j);
    if constexpr (layout::vectorized) {
      if (vector_store) {
        uint4 v;
        memcpy(&v, result, 16);
        reinterpret_cast<uint4*>(out + begin)[first / unit] = v;
        return;
      }
    }
#pragma unroll
    for (int k = 0; k < unit; ++k) {
      if (begin + first + k < n) {
        out[begin + first + k] = result[k];
      }
    }
  });
}

}  // namespace gpuprims::detail

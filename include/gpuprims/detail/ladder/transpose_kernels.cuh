// The transpose ladder's own kernels: the naive rung and the register-tile rungs (the shared-tile
// rungs are the library's kernel with a ladder tuning, ladder/transpose.cuh).
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/load.cuh>
#include <gpuprims/detail/transpose/tile.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims::detail {

// Rung 1 (the notes' naive kernel): one element per thread, coalesced reads, writes strided by the
// output pitch, so each warp's store touches 32 different sectors.
template <int TileCols, int TileRows, class T>
__global__ void __launch_bounds__(TileCols* TileRows)
    transpose_naive_kernel(const T* __restrict__ in, T* __restrict__ out, transpose_shape s) {
  wait_for_prior_grids();
  for_each_tile(s, TileRows, TileCols, [&](std::size_t b, std::size_t row0, std::size_t col0) {
    const std::size_t r = row0 + threadIdx.y;
    const std::size_t c = col0 + threadIdx.x;
    if (r < s.rows && c < s.cols) {
      out[b * s.out_batch_stride + c * s.out_pitch + r] =
          in[b * s.in_batch_stride + r * s.in_pitch + c];
    }
  });
}

// Rungs with K x K register tiles and no shared memory (the notes' float4 / float2 kernels, for any
// element type): each thread loads K rows of K contiguous elements, as one K * sizeof(T)-byte
// vector each where the addresses allow it, and stores the K transposed rows likewise. Partial
// tiles at the matrix edges go element by element.
template <int K, class T>
inline constexpr bool register_tile_vectorizable =
    K * sizeof(T) == 2 || K * sizeof(T) == 4 || K * sizeof(T) == 8 || K * sizeof(T) == 16;

// A row of K elements packed into / unpacked from the 32-bit lanes of one vector word.
template <class T>
using element_bits = typename vector_word<sizeof(T) < 4 ? sizeof(T) : 4>::type;

template <int K, class T>
__device__ __forceinline__ void pack_lanes(const T (&v)[K],
                                           unsigned int (&lanes)[(K * sizeof(T) + 3) / 4]) {
  if constexpr (sizeof(T) < 4) {
#pragma unroll
    for (int q = 0; q < (K * static_cast<int>(sizeof(T)) + 3) / 4; ++q) {
      lanes[q] = 0;
    }
  }
#pragma unroll
  for (int j = 0; j < K; ++j) {
    if constexpr (sizeof(T) >= 4) {
      unsigned int parts[sizeof(T) / 4];
      memcpy(parts, &v[j], sizeof(T));
#pragma unroll
      for (int q = 0; q < static_cast<int>(sizeof(T) / 4); ++q) {
        lanes[j * (sizeof(T) / 4) + q] = parts[q];
      }
    } else {
      element_bits<T> bits;
      memcpy(&bits, &v[j], sizeof(T));
      lanes[j * sizeof(T) / 4] |= static_cast<unsigned int>(bits) << (8 * (j * sizeof(T) % 4));
    }
  }
}

template <int K, class T>
__device__ __forceinline__ void unpack_lanes(const unsigned int (&lanes)[(K * sizeof(T) + 3) / 4],
                                             T (&v)[K]) {
#pragma unroll
  for (int j = 0; j < K; ++j) {
    if constexpr (sizeof(T) >= 4) {
      unsigned int parts[sizeof(T) / 4];
#pragma unroll
      for (int q = 0; q < static_cast<int>(sizeof(T) / 4); ++q) {
        parts[q] = lanes[j * (sizeof(T) / 4) + q];
      }
      memcpy(&v[j], parts, sizeof(T));
    } else {
      const auto bits =
          static_cast<element_bits<T>>(lanes[j * sizeof(T) / 4] >> (8 * (j * sizeof(T) % 4)));
      memcpy(&v[j], &bits, sizeof(T));
    }
  }
}

template <int K, bool Vector, class T>
__device__ __forceinline__ void load_row(const T* p, T (&v)[K]) {
  constexpr std::size_t bytes = K * sizeof(T);
  if constexpr (Vector) {
    unsigned int lanes[(bytes + 3) / 4];
    if constexpr (bytes == 16) {
      const uint4 w = *reinterpret_cast<const uint4*>(p);
      lanes[0] = w.x, lanes[1] = w.y, lanes[2] = w.z, lanes[3] = w.w;
    } else if constexpr (bytes == 8) {
      const uint2 w = *reinterpret_cast<const uint2*>(p);
      lanes[0] = w.x, lanes[1] = w.y;
    } else if constexpr (bytes == 4) {
      lanes[0] = *reinterpret_cast<const unsigned int*>(p);
    } else {
      lanes[0] = *reinterpret_cast<const unsigned short*>(p);
    }
    unpack_lanes<K>(lanes, v);
  } else {
#pragma unroll
    for (int j = 0; j < K; ++j) {
      v[j] = p[j];
    }
  }
}

// The vector stores are written in PTX: inside the tile loops, the compiler split plain C++ stores
// of a uint4 / uint2 built from the transposed registers into per-element stores (seen with nvcc
// 13.0), which is the very thing this rung exists to avoid.
template <int K, bool Vector, class T>
__device__ __forceinline__ void store_row(T* p, const T (&v)[K]) {
  constexpr std::size_t bytes = K * sizeof(T);
  if constexpr (Vector && sizeof(T) == 8) {  // two 8-byte elements: one 64-bit register each
    unsigned long long e[2];
    memcpy(&e[0], &v[0], 8);
    memcpy(&e[1], &v[1], 8);
    asm volatile("st.global.v2.b64 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(p)), "l"(e[0]),
                 "l"(e[1])
                 : "memory");
  } else if constexpr (Vector) {
    unsigned int l[(bytes + 3) / 4];
    pack_lanes<K>(v, l);
    const std::size_t address = __cvta_generic_to_global(p);
    if constexpr (bytes == 16) {
      asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(address), "r"(l[0]), "r"(l[1]),
                   "r"(l[2]), "r"(l[3])
                   : "memory");
    } else if constexpr (bytes == 8) {
      asm volatile("st.global.v2.b32 [%0], {%1, %2};" ::"l"(address), "r"(l[0]), "r"(l[1])
                   : "memory");
    } else if constexpr (bytes == 4) {
      asm volatile("st.global.b32 [%0], %1;" ::"l"(address), "r"(l[0]) : "memory");
    } else {
      asm volatile("st.global.b16 [%0], %1;" ::"l"(address), "h"(static_cast<unsigned short>(l[0]))
                   : "memory");
    }
  } else {
#pragma unroll
    for (int j = 0; j < K; ++j) {
      p[j] = v[j];
    }
  }
}

// Vector: the host checked that both base pointers, both pitches and both batch strides keep
// K-element rows aligned to K * sizeof(T) bytes. A template parameter, not a run-time flag: with a
// flag the compiler merged the vector and element-wise stores into element-wise ones.
template <int K, bool Vector, int BlockX, int BlockY, class T>
__global__ void __launch_bounds__(BlockX* BlockY)
    transpose_register_kernel(const T* __restrict__ in, T* __restrict__ out, transpose_shape s) {
  static_assert(!Vector || register_tile_vectorizable<K, T>,
                "no vector word of K * sizeof(T) bytes");
  wait_for_prior_grids();
  for_each_tile(s, BlockY * K, BlockX * K, [&](std::size_t b, std::size_t row0, std::size_t col0) {
    const std::size_t r = row0 + threadIdx.y * K;
    const std::size_t c = col0 + threadIdx.x * K;
    const T* src = in + b * s.in_batch_stride;
    T* dst = out + b * s.out_batch_stride;
    if (r + K <= s.rows && c + K <= s.cols) {
      T v[K][K];
#pragma unroll
      for (int i = 0; i < K; ++i) {
        load_row<K, Vector>(src + (r + i) * s.in_pitch + c, v[i]);
      }
#pragma unroll
      for (int j = 0; j < K; ++j) {
        T t[K];
#pragma unroll
        for (int i = 0; i < K; ++i) {
          t[i] = v[i][j];
        }
        store_row<K, Vector>(dst + (c + j) * s.out_pitch + r, t);
      }
    } else {
      for (int i = 0; i < K; ++i) {
        for (int j = 0; j < K; ++j) {
          if (r + i < s.rows && c + j < s.cols) {
            dst[(c + j) * s.out_pitch + r + i] = src[(r + i) * s.in_pitch + c + j];
          }
        }
      }
    }
  });
}

}  // namespace gpuprims::detail

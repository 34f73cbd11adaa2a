// Internals of the transpose: the problem shape, the ladder's kernels and the register-tile rung.
#pragma once

#include <gpuprims/detail/config.cuh>
#include <gpuprims/detail/bulk_copy.cuh>
#include <gpuprims/detail/dependent_launch.cuh>
#include <gpuprims/detail/copy_kernels.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace gpuprims::detail {

// A batch of row-major matrices: in is rows x cols with row pitch in_pitch (elements), out is
// cols x rows with row pitch out_pitch; matrix b starts b * in_batch_stride / out_batch_stride
// elements in.
struct transpose_shape {
  std::size_t rows, cols, in_pitch, out_pitch, batch, in_batch_stride, out_batch_stride;
};

// Grid-stride over (batch, tile row, tile column), so that grids clamped to 65535 along y and z
// still cover tall matrices and large batches. Every thread of a block runs the same iterations:
// barriers inside `body` are reached by all of them.
// Covered: the host made the grid one block per tile (the common case), so no loops, and fewer
// live registers for the loads in flight; x then runs down the tile rows (see
// launch_transpose_shared).
template <bool Covered = false, class Body>
__device__ __forceinline__ void for_each_tile(const transpose_shape& s, std::size_t tile_rows,
                                              std::size_t tile_cols, Body body) {
  if constexpr (Covered) {
    body(blockIdx.z, blockIdx.x * tile_rows, blockIdx.y * tile_cols);
    return;
  }
  const std::size_t tiles_y = (s.rows + tile_rows - 1) / tile_rows;
  const std::size_t tiles_x = (s.cols + tile_cols - 1) / tile_cols;
  for (std::size_t b = blockIdx.z; b < s.batch; b += gridDim.z) {
    for (std::size_t ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
      for (std::size_t tx = blockIdx.x; tx < tiles_x; tx += gridDim.x) {
        body(b, ty * tile_rows, tx * tile_cols);
      }
    }
  }
}

// A tile that lies inside the matrix: all Tile / Rows loads of a thread before its first
// shared-memory store, from one base pointer.
template <int Tile, int Pad, int Rows, class T>
__device__ __forceinline__ void load_whole_tile(T (&tile)[Tile][Tile + Pad], const T* in, std::size_t in_pitch,
                                                std::size_t row0, std::size_t col0) {
  constexpr int per_thread = Tile / Rows;
  const T* src = in + (row0 + threadIdx.y) * in_pitch + col0 + threadIdx.x;
  T v[per_thread];
#pragma unroll
  for (int k = 0; k < per_thread; ++k) {
    v[k] = src[k * Rows * in_pitch];
  }
#pragma unroll
  for (int k = 0; k < per_thread; ++k) {
    tile[threadIdx.y + k * Rows][threadIdx.x] = v[k];
  }
}

// One Tile x Tile tile through shared memory, blockDim (Tile, Rows): coalesced row reads into
// tile[row][col], then coalesced row writes of the output read down the tile's columns. A tile that
// lies inside the matrix (the block-uniform common case) goes through load_whole_tile; edge tiles
// check every element. Threads outside the matrix skip their loads and stores but always reach
// the barrier.
template <int Tile, int Pad, int Rows, class T>
__device__ __forceinline__ void transpose_tile_shared(T (&tile)[Tile][Tile + Pad], const T* in,
                                                      std::size_t in_pitch, T* out, std::size_t out_pitch,
                                                      std::size_t rows, std::size_t cols, std::size_t row0,
                                                      std::size_t col0) {
  constexpr int per_thread = Tile / Rows;
  const unsigned int x = threadIdx.x;
  const unsigned int y = threadIdx.y;
  const bool full = row0 + Tile <= rows && col0 + Tile <= cols;
  if (full) {
    load_whole_tile<Tile, Pad, Rows>(tile, in, in_pitch, row0, col0);
  } else {
#pragma unroll
    for (int k = 0; k < Tile; k += Rows) {
      const std::size_t r = row0 + y + k;
      const std::size_t c = col0 + x;
      if (r < rows && c < cols) {
        tile[y + k][x] = in[r * in_pitch + c];
      }
    }
  }
  __syncthreads();
  if (full) {
    T* dst = out + (col0 + y) * out_pitch + row0 + x;
#pragma unroll
    for (int k = 0; k < per_thread; ++k) {
      dst[k * Rows * out_pitch] = tile[x][y + k * Rows];
    }
  } else {
#pragma unroll
    for (int k = 0; k < Tile; k += Rows) {
      const std::size_t out_row = col0 + y + k;
      const std::size_t out_col = row0 + x;
      if (out_row < cols && out_col < rows) {
        out[out_row * out_pitch + out_col] = tile[x][y + k];
      }
    }
  }
}

// Output rows of a tile staged for bulk stores: each row starts 16 bytes after a multiple of 16.
template <int Tile, class T>
inline constexpr int staged_row_pitch = Tile + 16 / static_cast<int>(sizeof(T));

// The default's tile on sm_90 and later for large matrices of 4-byte elements: the loads of
// transpose_tile_shared, then each warp gathers whole tile columns into `staged`, laid out as
// output rows, and writes each row with one bulk copy, which takes the stores off the SM's
// load/store path. Against the same tile written with ordinary stores this measured +0.5-1.7% at
// 8192^2 and 16384^2 floats on an H100 (docs/transpose.md). The host checked that every output
// row of a whole tile starts 16-byte aligned. Edge tiles go through transpose_tile_shared.
template <int Tile, int Pad, int Rows, class T>
__device__ __forceinline__ void transpose_tile_bulk_store(T (&tile)[Tile][Tile + Pad],
                                                          T (&staged)[Tile][staged_row_pitch<Tile, T>], const T* in,
                                                          std::size_t in_pitch, T* out, std::size_t out_pitch,
                                                          std::size_t rows, std::size_t cols, std::size_t row0,
                                                          std::size_t col0) {
  static_assert(Tile % 32 == 0 && Tile * sizeof(T) % 16 == 0, "bulk copies move multiples of 16 bytes");
  if (row0 + Tile <= rows && col0 + Tile <= cols) {
    load_whole_tile<Tile, Pad, Rows>(tile, in, in_pitch, row0, col0);
    __syncthreads();
    constexpr int warps = Tile * Rows / 32;
    const unsigned int thread = threadIdx.y * Tile + threadIdx.x;
    const unsigned int lane = thread % 32;
    const unsigned int warp = thread / 32;
    // A warp reads 32 rows of one tile column (32 banks, thanks to Pad) and writes them as 32
    // consecutive elements of a staged row.
    for (unsigned int c = warp; c < Tile; c += warps) {
#pragma unroll
      for (int k = 0; k < Tile; k += 32) {
        staged[c][lane + k] = tile[lane + k][c];
      }
    }
    fence_shared_for_bulk_copies();
    __syncwarp();
    const unsigned int c = warp + lane * warps;  // lane i stores the warp's i-th row
    if (c < Tile) {
      bulk_store(out + (col0 + c) * out_pitch + row0, &staged[c][0], Tile * sizeof(T));
      wait_bulk_store_reads();
    }
    return;
  }
  transpose_tile_shared<Tile, Pad, Rows>(tile, in, in_pitch, out, out_pitch, rows, cols, row0, col0);
}

// Rungs 2 and 3: the shared tile without and with padding, and the default (BulkStores: whole
// tiles leave through transpose_tile_bulk_store where the code is built for sm_90 or later; older
// targets have no bulk copies and compile the ordinary kernel, without the staged rows). Storage
// is raw bytes because a trivially copyable T may still lack the trivial constructor __shared__
// variables need.
// MinBlocks: resident blocks per multiprocessor to keep registers for (the bytes in flight a
// memory-bound kernel needs come from occupancy); 0 leaves the register count to the compiler.
template <int Tile, int Pad, int Rows, class T, int MinBlocks = 0, bool Covered = false, bool BulkStores = false>
__global__ void __launch_bounds__(Tile* Rows, MinBlocks)
    transpose_shared_kernel(const T* __restrict__ in, T* __restrict__ out, transpose_shape s) {
  __shared__ alignas(T) unsigned char raw[sizeof(T) * Tile * (Tile + Pad)];
  auto& tile = *reinterpret_cast<T(*)[Tile][Tile + Pad]>(raw);
  wait_for_prior_grids();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr bool bulk_stores = BulkStores;
#else
  constexpr bool bulk_stores = false;
#endif
  if constexpr (bulk_stores) {
    __shared__ alignas(16) unsigned char staged_raw[sizeof(T) * Tile * staged_row_pitch<Tile, T>];
    auto& staged = *reinterpret_cast<T(*)[Tile][staged_row_pitch<Tile, T>]>(staged_raw);
    for_each_tile<Covered>(s, Tile, Tile, [&](std::size_t b, std::size_t row0, std::size_t col0) {
      transpose_tile_bulk_store<Tile, Pad, Rows>(tile, staged, in + b * s.in_batch_stride, s.in_pitch,
                                                 out + b * s.out_batch_stride, s.out_pitch, s.rows, s.cols, row0,
                                                 col0);
      __syncthreads();  // the next tile overwrites both tiles; bulk stores have read theirs
    });
  } else {
    for_each_tile<Covered>(s, Tile, Tile, [&](std::size_t b, std::size_t row0, std::size_t col0) {
      transpose_tile_shared<Tile, Pad, Rows>(tile, in + b * s.in_batch_stride, s.in_pitch,
                                             out + b * s.out_batch_stride, s.out_pitch, s.rows, s.cols, row0, col0);
      __syncthreads();  // the next tile overwrites this one
    });
  }
}

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
      out[b * s.out_batch_stride + c * s.out_pitch + r] = in[b * s.in_batch_stride + r * s.in_pitch + c];
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
__device__ __forceinline__ void pack_lanes(const T (&v)[K], unsigned int (&lanes)[(K * sizeof(T) + 3) / 4]) {
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
__device__ __forceinline__ void unpack_lanes(const unsigned int (&lanes)[(K * sizeof(T) + 3) / 4], T (&v)[K]) {
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
      const auto bits = static_cast<element_bits<T>>(lanes[j * sizeof(T) / 4] >> (8 * (j * sizeof(T) % 4)));
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
    asm volatile("st.global.v2.b64 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(p)), "l"(e[0]), "l"(e[1])
                 : "memory");
  } else if constexpr (Vector) {
    unsigned int l[(bytes + 3) / 4];
    pack_lanes<K>(v, l);
    const std::size_t address = __cvta_generic_to_global(p);
    if constexpr (bytes == 16) {
      asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(address), "r"(l[0]), "r"(l[1]), "r"(l[2]),
                   "r"(l[3])
                   : "memory");
    } else if constexpr (bytes == 8) {
      asm volatile("st.global.v2.b32 [%0], {%1, %2};" ::"l"(address), "r"(l[0]), "r"(l[1]) : "memory");
    } else if constexpr (bytes == 4) {
      asm volatile("st.global.b32 [%0], %1;" ::"l"(address), "r"(l[0]) : "memory");
    } else {
      asm volatile("st.global.b16 [%0], %1;" ::"l"(address), "h"(static_cast<unsigned short>(l[0])) : "memory");
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
  static_assert(!Vector || register_tile_vectorizable<K, T>, "no vector word of K * sizeof(T) bytes");
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

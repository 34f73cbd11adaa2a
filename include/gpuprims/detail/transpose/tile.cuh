// Internals of the transpose's shared tile, used by tiled_transpose and the launcher's kernel: the
// problem shape, the walk over tiles, the tile's loads and stores, and the bulk-store form.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/arch/bulk_copy.cuh>
#include <gpuprims/detail/load.cuh>

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
// live registers for the loads in flight; x then runs down the tile rows (see launch_transpose).
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

// A Tile x (Tile + Pad) array over raw shared bytes: a trivially copyable T may still lack the
// trivial constructor that __shared__ variables need.
template <int Tile, int Pad, class T>
using tile_array = T[Tile][Tile + Pad];

template <int Tile, int Pad, class T>
__device__ __forceinline__ tile_array<Tile, Pad, T>& as_tile(unsigned char* bytes) {
  return *reinterpret_cast<tile_array<Tile, Pad, T>*>(bytes);
}

// A tile that lies inside the matrix: all Tile / Rows loads of a thread before its first
// shared-memory store, from one base pointer.
template <int Tile, int Pad, int Rows, class T>
__device__ __forceinline__ void load_whole_tile(tile_array<Tile, Pad, T>& tile, const T* in,
                                                std::size_t in_pitch, std::size_t row0,
                                                std::size_t col0) {
  const T* src = in + (row0 + threadIdx.y) * in_pitch + col0 + threadIdx.x;
  load_then_consume<Tile / Rows>(
      [&](int k) { return src[k * Rows * in_pitch]; },
      [&](int k, const T& v) { tile[threadIdx.y + k * Rows][threadIdx.x] = v; });
}

// One Tile x Tile tile through shared memory, blockDim (Tile, Rows): coalesced row reads into
// tile[row][col], then coalesced row writes of the output read down the tile's columns. A tile that
// lies inside the matrix (the block-uniform common case) goes through load_whole_tile; edge tiles
// check every element. Threads outside the matrix skip their loads and stores but always reach
// the barrier.
template <int Tile, int Pad, int Rows, class T>
__device__ __forceinline__ void transpose_tile_shared(tile_array<Tile, Pad, T>& tile, const T* in,
                                                      std::size_t in_pitch, T* out,
                                                      std::size_t out_pitch, std::size_t rows,
                                                      std::size_t cols, std::size_t row0,
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

template <int Tile, class T>
using staged_rows = T[Tile][staged_row_pitch<Tile, T>];

// The bulk-store form of a tile (sm_90 and later): the loads of transpose_tile_shared, then each
// warp gathers whole tile columns into `staged`, laid out as output rows, and writes each row with
// one bulk copy, which takes the stores off the SM's load/store path (+0.9-1.3% on large float
// matrices on an H100, notes/transpose.md). The host checked that every output row of a whole tile
// starts 16-byte aligned. Edge tiles go through transpose_tile_shared.
template <int Tile, int Pad, int Rows, class T>
__device__ __forceinline__ void transpose_tile_bulk_store(tile_array<Tile, Pad, T>& tile,
                                                          staged_rows<Tile, T>& staged, const T* in,
                                                          std::size_t in_pitch, T* out,
                                                          std::size_t out_pitch, std::size_t rows,
                                                          std::size_t cols, std::size_t row0,
                                                          std::size_t col0) {
  static_assert(Tile % 32 == 0 && Tile * sizeof(T) % 16 == 0,
                "bulk copies move multiples of 16 bytes");
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
    arch::fence_shared_for_bulk_copies();
    __syncwarp();
    const unsigned int c = warp + lane * warps;  // lane i stores the warp's i-th row
    if (c < Tile) {
      arch::bulk_store(out + (col0 + c) * out_pitch + row0, &staged[c][0], Tile * sizeof(T));
      arch::wait_bulk_store_reads();
    }
    return;
  }
  transpose_tile_shared<Tile, Pad, Rows>(tile, in, in_pitch, out, out_pitch, rows, cols, row0,
                                         col0);
}

// A thread's items of a tile, exchanged through shared memory: items[k] is element
// (y + k * Rows, x) of the tile before and of the transposed tile after.
template <int Tile, int Pad, int Rows, class T>
__device__ __forceinline__ void transpose_items(tile_array<Tile, Pad, T>& tile,
                                                T (&items)[Tile / Rows]) {
#pragma unroll
  for (int k = 0; k < Tile / Rows; ++k) {
    tile[threadIdx.y + k * Rows][threadIdx.x] = items[k];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < Tile / Rows; ++k) {
    items[k] = tile[threadIdx.x][threadIdx.y + k * Rows];
  }
}

}  // namespace gpuprims::detail

// tiled_transpose<Tile, Pad>: out = in^T through a shared-memory tile, coalesced on both sides, with
// the optimisation ladder of the reference notes selectable on the host launcher.
#pragma once

#include <gpuprims/detail/config.cuh>
#include <gpuprims/detail/launch.cuh>
#include <gpuprims/detail/transpose_kernels.cuh>

#include <cuda_runtime.h>

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gpuprims {

/// One tile of a transpose, from a user kernel with blockDim (Tile, Rows): each thread moves
/// Tile / Rows elements in and out. The storage is a [Tile][Tile + Pad] array in shared memory;
/// Pad = 1 shifts each row by one bank, so reading a tile column touches 32 different banks (with
/// Pad = 0 all 32 reads of a 4-byte column hit one bank). Call it from every thread of the block,
/// also those whose elements fall outside the matrix; __syncthreads() before reusing the storage.
///
///   __shared__ gpuprims::tiled_transpose<32, 1>::storage<float> tile;
///   gpuprims::tiled_transpose<32, 1>::transpose_tile(tile, in, cols, out, rows, rows, cols,
///                                                     blockIdx.y * std::size_t{32}, blockIdx.x * std::size_t{32});
template <int Tile = 32, int Pad = 1, int Rows = 8>
struct tiled_transpose {
  static_assert(Tile > 0 && Rows > 0 && Tile % Rows == 0, "Rows must divide Tile");
  static_assert(Pad >= 0, "Pad is extra columns per tile row");
  static constexpr int tile = Tile;
  static constexpr int block_x = Tile;
  static constexpr int block_y = Rows;

  template <class T>
  using storage = T[Tile][Tile + Pad];

  /// Transposes in[row0 .. row0 + Tile) x [col0 .. col0 + Tile) (clipped to rows x cols; in has row
  /// pitch in_pitch) into out (cols x rows, row pitch out_pitch).
  template <class T>
  __device__ static void transpose_tile(storage<T>& tile, const T* in, std::size_t in_pitch, T* out,
                                        std::size_t out_pitch, std::size_t rows, std::size_t cols,
                                        std::size_t row0, std::size_t col0) {
    assert(blockDim.x == Tile && blockDim.y == Rows);  // other shapes index past the tile
    detail::transpose_tile_shared<Tile, Pad, Rows>(tile, in, in_pitch, out, out_pitch, rows, cols, row0, col0);
  }
};

/// The rungs of the transpose ladder (docs/transpose.md), for the host launcher.
enum class transpose_algorithm {
  naive,            ///< one element per thread, uncoalesced writes
  shared_unpadded,  ///< tiled_transpose<32, 0>: coalesced, 32-way bank conflicts on 4-byte types
  shared_padded,    ///< tiled_transpose<32, 1>: coalesced, conflict-free
  register_4x4,     ///< 4 x 4 elements per thread in registers (float4 for 4-byte types)
  register_2x2,     ///< 2 x 2 elements per thread in registers (float2 for 4-byte types)
  automatic,        ///< the default: 64 x 64 shared tiles up to 4-byte elements (bulk stores on large float
                    ///< matrices), 32 x 32 above
};

namespace detail {

template <class T>
cudaError_t validate_transpose(const T* in, const T* out, const transpose_shape& s) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  std::size_t in_span = 0, out_span = 0;
  const bool ok =
      in != nullptr && out != nullptr && s.in_pitch >= s.cols && s.out_pitch >= s.rows &&
      checked_span(s.batch, s.in_batch_stride, s.rows, s.in_pitch, s.cols, in_span) &&
      checked_span(s.batch, s.out_batch_stride, s.cols, s.out_pitch, s.rows, out_span) &&
      // Matrices of a batch may not overlap (checked without overflow: both spans fit in size_t).
      (s.batch == 1 || (s.in_batch_stride / s.in_pitch >= s.rows && s.out_batch_stride / s.out_pitch >= s.cols)) &&
      in_span <= max / sizeof(T) && out_span <= max / sizeof(T) &&
      !ranges_overlap(in, in_span * sizeof(T), out, out_span * sizeof(T));
  return ok ? cudaSuccess : cudaErrorInvalidValue;
}

// Grid over tiles: x covers the tile columns (up to 2^31 - 1), y and z are clamped to 65535 and the
// kernels loop over the rest.
inline dim3 transpose_grid(const transpose_shape& s, std::size_t tile_rows, std::size_t tile_cols) {
  const std::size_t clamp = 65535;
  const std::size_t tiles_y = (s.rows + tile_rows - 1) / tile_rows;
  return dim3(covering_blocks(s.cols, tile_cols), static_cast<unsigned int>(tiles_y < clamp ? tiles_y : clamp),
              static_cast<unsigned int>(s.batch < clamp ? s.batch : clamp));
}

template <int K, class T>
bool register_tile_aligned(const T* in, const T* out, const transpose_shape& s) {
  if constexpr (register_tile_vectorizable<K, T>) {
    constexpr std::size_t bytes = K * sizeof(T);
    return reinterpret_cast<std::uintptr_t>(in) % bytes == 0 && reinterpret_cast<std::uintptr_t>(out) % bytes == 0 &&
           s.in_pitch % K == 0 && s.out_pitch % K == 0 &&
           (s.batch == 1 || (s.in_batch_stride % K == 0 && s.out_batch_stride % K == 0));
  } else {
    return false;
  }
}

// The shared-tile kernel, one block per tile when the grid can hold them all (the loop-free
// kernel keeps fewer registers live), else the grid-stride one. The one-block-per-tile grid runs
// down the tile rows first: the blocks resident at a time then write a few whole output rows and
// read short pieces of many input rows, which measured 0.5-0.8% faster on an H100 than the
// transposed order (docs/transpose.md).
template <int Tile, int Pad, int Rows, int MinBlocks, bool BulkStores = false, class T>
cudaError_t launch_transpose_shared(const T* in, T* out, const transpose_shape& s, cudaStream_t stream) {
  constexpr std::size_t max_y = 65535;
  const std::size_t tiles_y = (s.rows + Tile - 1) / Tile;
  const std::size_t tiles_x = (s.cols + Tile - 1) / Tile;
  if (tiles_y <= 0x7fffffff && tiles_x <= max_y && s.batch <= max_y) {
    const dim3 grid(static_cast<unsigned int>(tiles_y), static_cast<unsigned int>(tiles_x),
                    static_cast<unsigned int>(s.batch));
    return launch<transpose_shared_kernel<Tile, Pad, Rows, T, MinBlocks, true, BulkStores>>(grid, dim3(Tile, Rows),
                                                                                             stream, in, out, s);
  }
  return launch<transpose_shared_kernel<Tile, Pad, Rows, T, MinBlocks, false, BulkStores>>(
      transpose_grid(s, Tile, Tile), dim3(Tile, Rows), stream, in, out, s);
}

// Whether the default kernel for 4-byte elements writes its whole tiles with bulk copies.
// Measured on an H100 (docs/transpose.md): +0.5-2% from 64 MiB up (4096^2 to 16384^2 floats,
// 64 x 1024^2), but -14 to -16% at 16 MiB (2048^2) and -5 to -10% at 4 MiB (2048 x 512), where the
// wait for each tile's copy to leave shared memory is not hidden; 2-byte elements (128-byte rows)
// lost 5-7% at 8192^2 and keep ordinary stores. Bulk copies need output rows (out + b *
// out_batch_stride + c * out_pitch + a multiple of the tile) that start 16-byte aligned; code built
// for GPUs before sm_90 ignores the choice (transpose_shared_kernel).
inline constexpr std::size_t bulk_store_min_bytes = std::size_t{32} << 20;

template <class T>
bool bulk_stores_pay(const T* out, const transpose_shape& s) {
  constexpr std::size_t align = 16;
  return s.rows * s.cols * s.batch >= bulk_store_min_bytes / sizeof(T) &&
         reinterpret_cast<std::uintptr_t>(out) % align == 0 && s.out_pitch * sizeof(T) % align == 0 &&
         (s.batch == 1 || s.out_batch_stride * sizeof(T) % align == 0);
}

}  // namespace detail

/// out (cols x rows, row pitch out_pitch) = in^T (rows x cols, row pitch in_pitch), for `batch`
/// matrices in_batch_stride / out_batch_stride elements apart. Element types of 1, 2, 4, 8 or 16
/// bytes. Out of place: overlapping spans return cudaErrorInvalidValue, as do null pointers, pitches
/// shorter than a row and batch strides shorter than a matrix; an empty matrix or batch launches
/// nothing. Asynchronous on `stream`.
///
///   // three 100 x 50 matrices, rows padded to 64 and 128 elements, packed back to back:
///   cudaError_t e = gpuprims::transpose(d_in, d_out, 100, 50, 64, 128, 3, 100 * 64, 50 * 128, stream);
template <transpose_algorithm Algorithm = transpose_algorithm::automatic, class T>
[[nodiscard]] cudaError_t transpose(const T* in, T* out, std::size_t rows, std::size_t cols,
                                    std::size_t in_pitch, std::size_t out_pitch, std::size_t batch,
                                    std::size_t in_batch_stride, std::size_t out_batch_stride,
                                    cudaStream_t stream = 0) {
  static_assert(std::is_trivially_copyable_v<T>, "transpose moves bytes: T must be trivially copyable");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "transpose supports elements of 1, 2, 4, 8 or 16 bytes");
  if (rows == 0 || cols == 0 || batch == 0) {
    return cudaSuccess;
  }
  const detail::transpose_shape s{rows, cols, in_pitch, out_pitch, batch, in_batch_stride, out_batch_stride};
  GPUPRIMS_RETURN_IF_ERROR(detail::validate_transpose(in, out, s));
  constexpr int block_x = 32, block_y = 8;
  if constexpr (Algorithm == transpose_algorithm::naive) {
    return detail::launch<detail::transpose_naive_kernel<block_x, block_y, T>>(
        detail::transpose_grid(s, block_y, block_x), dim3(block_x, block_y), stream, in, out, s);
  } else if constexpr (Algorithm == transpose_algorithm::shared_unpadded) {
    return detail::launch_transpose_shared<32, 0, 8, 8>(in, out, s, stream);
  } else if constexpr (Algorithm == transpose_algorithm::shared_padded) {
    return detail::launch_transpose_shared<32, 1, 8, 8>(in, out, s, stream);
  } else if constexpr (Algorithm == transpose_algorithm::automatic) {
    // Measured on an H100 (docs/transpose.md): 64 x 64 tiles, 512 threads moving 8 elements each,
    // registers for 4 blocks per SM, beat 32 x 32 tiles for elements of up to 4 bytes (256-byte
    // row segments on both sides), with bulk stores of the output rows on large float matrices;
    // for 8- and 16-byte elements 32 x 32 tiles already move 256 bytes a row. The padding keeps a
    // tile column on 32 different banks: one 4-byte word per row.
    if constexpr (sizeof(T) <= 4) {
      constexpr int pad = 4 / static_cast<int>(sizeof(T));
      if constexpr (sizeof(T) == 4) {
        if (detail::bulk_stores_pay(out, s)) {
          return detail::launch_transpose_shared<64, pad, 8, 4, true>(in, out, s, stream);
        }
      }
      return detail::launch_transpose_shared<64, pad, 8, 4>(in, out, s, stream);
    } else {
      return detail::launch_transpose_shared<32, 1, 8, 8>(in, out, s, stream);
    }
  } else {
    static_assert(std::is_default_constructible_v<T>,
                  "the register-tile rungs hold elements in registers: T must be default constructible");
    constexpr int k = Algorithm == transpose_algorithm::register_4x4 ? 4 : 2;
    const dim3 grid = detail::transpose_grid(s, block_y * k, block_x * k);
    if constexpr (detail::register_tile_vectorizable<k, T>) {
      if (detail::register_tile_aligned<k>(in, out, s)) {
        return detail::launch<detail::transpose_register_kernel<k, true, block_x, block_y, T>>(
            grid, dim3(block_x, block_y), stream, in, out, s);
      }
    }
    return detail::launch<detail::transpose_register_kernel<k, false, block_x, block_y, T>>(
        grid, dim3(block_x, block_y), stream, in, out, s);
  }
}

/// One matrix with row pitches (elements): in_pitch >= cols, out_pitch >= rows, as cuBLAS geam's lda/ldc.
template <transpose_algorithm Algorithm = transpose_algorithm::automatic, class T>
[[nodiscard]] cudaError_t transpose(const T* in, T* out, std::size_t rows, std::size_t cols,
                                    std::size_t in_pitch, std::size_t out_pitch, cudaStream_t stream = 0) {
  return transpose<Algorithm>(in, out, rows, cols, in_pitch, out_pitch, 1, rows * in_pitch, cols * out_pitch,
                              stream);
}

/// One dense row-major matrix.
///
///   cudaError_t e = gpuprims::transpose(d_in, d_out, rows, cols, stream);
template <transpose_algorithm Algorithm = transpose_algorithm::automatic, class T>
[[nodiscard]] cudaError_t transpose(const T* in, T* out, std::size_t rows, std::size_t cols,
                                    cudaStream_t stream = 0) {
  return transpose<Algorithm>(in, out, rows, cols, cols, rows, stream);
}

}  // namespace gpuprims

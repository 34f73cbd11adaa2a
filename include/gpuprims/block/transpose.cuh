// tiled_transpose<Tile, Pad, T>: one tile of a transpose through shared memory, coalesced on both
// sides, from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/block_shape.cuh>
#include <gpuprims/detail/transpose/tile.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace gpuprims {

/// A block-level transpose of Tile x Tile tiles of T, for blocks of (Tile, Rows) threads: each
/// thread moves Tile / Rows elements. The storage is a [Tile][Tile + Pad] tile in shared memory;
/// Pad = 1 (for 4-byte T) shifts each row by one bank, so reading a tile column touches 32
/// different banks (with Pad = 0 all 32 reads of a 4-byte column hit one bank). Every thread of the
/// block calls each method (they hold a barrier); __syncthreads() before reusing the storage. A
/// block of another shape stops the kernel (cudaErrorIllegalInstruction), in every build.
///
///   using tile_t = gpuprims::tiled_transpose<32, 1, float>;          // blocks of 32 x 8 threads
///   __shared__ tile_t::storage s;
///   tile_t(s).transpose(in, cols, out, rows, rows, cols, blockIdx.y * 32ull, blockIdx.x * 32ull);
template <int Tile, int Pad, class T, int Rows = 8>
class tiled_transpose {
  static_assert(Tile > 0 && Rows > 0 && Tile % Rows == 0 && Tile * Rows <= 1024,
                "Rows must divide Tile, and a block of Tile x Rows threads holds at most 1024");
  static_assert(Pad >= 0, "Pad is extra elements per tile row");
  static_assert(std::is_trivially_copyable_v<T>, "tiled_transpose moves T through shared memory");

 public:
  static constexpr int block_x = Tile;                  ///< blockDim.x
  static constexpr int block_y = Rows;                  ///< blockDim.y
  static constexpr int items_per_thread = Tile / Rows;  ///< elements each thread moves per tile

  /// Declare it __shared__.
  struct storage {
    alignas(T) unsigned char bytes[sizeof(T) * Tile * (Tile + Pad)];
  };

  __device__ explicit tiled_transpose(storage& s) : tile_(detail::as_tile<Tile, Pad, T>(s.bytes)) {
    detail::require_block_shape(Tile, Rows, 1);
  }

  /// Transposes in[row0 .. row0 + Tile) x [col0 .. col0 + Tile) of a rows x cols matrix (row pitch
  /// in_pitch) into out (cols x rows, row pitch out_pitch). Tiles that reach past the matrix (a
  /// partial tile) are clipped; threads whose elements fall outside skip them.
  __device__ void transpose(const T* in, std::size_t in_pitch, T* out, std::size_t out_pitch,
                            std::size_t rows, std::size_t cols, std::size_t row0,
                            std::size_t col0) {
    detail::transpose_tile_shared<Tile, Pad, Rows>(tile_, in, in_pitch, out, out_pitch, rows, cols,
                                                   row0, col0);
  }

  /// Transposes a tile held in registers: thread (x, y) passes items[k] = element (y + k Rows, x)
  /// of the tile and gets back element (y + k Rows, x) of the transposed tile. Your kernel loads
  /// and stores (and may transform) the items itself.
  __device__ void transpose(T (&items)[items_per_thread]) {
    detail::transpose_items<Tile, Pad, Rows>(tile_, items);
  }

 private:
  detail::tile_array<Tile, Pad, T>& tile_;
};

}  // namespace gpuprims

// stencil1d<Rad, T>: one tile of a 1D stencil through shared memory, with its halo and a boundary
// rule, from your own kernel.
#pragma once

#include <gpuprims/config.cuh>
#include <gpuprims/detail/block_shape.cuh>
#include <gpuprims/detail/stencil/tile.cuh>
#include <gpuprims/types.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpuprims {

/// A block-level 1D stencil, out[i] = sum over j in [0, 2 Rad] of w[j] * in[i - Rad + j], for
/// one-dimensional blocks of BlockSize threads computing ItemsPerThread outputs each: one tile of
/// `tile` outputs per call, its inputs and the 2 Rad halo staged in shared memory, positions
/// outside [0, n) supplied by the boundary rule. Whole tiles of 16-byte-aligned pointers move as
/// 16-byte vectors when ItemsPerThread is a multiple of 16 / sizeof(T). Weights: stencil_weights<T,
/// Rad>, or any type with `static constexpr int radius = Rad` and a constexpr `operator[](int)`
/// (the compiler folds those). Every thread of the block calls each method (they hold a barrier);
/// __syncthreads() before reusing the storage. A block of another shape stops the kernel
/// (cudaErrorIllegalInstruction), in every build.
///
///   using stencil_t = gpuprims::stencil1d<3, float, 256>;        // 1024 outputs per tile
///   __shared__ stencil_t::storage s;
///   stencil_t(s).apply(in, out, n, blockIdx.x * std::size_t{stencil_t::tile}, weights,
///                      gpuprims::boundary::clamp());
template <int Rad, class T, int BlockSize = 256,
          int ItemsPerThread = 16 / static_cast<int>(sizeof(T))>
class stencil1d {
  using layout = detail::stencil_layout<Rad, T, BlockSize, ItemsPerThread>;
  static_assert(Rad >= 1 && Rad <= 16, "stencil1d supports radii 1 to 16");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "stencil1d supports float and double");
  static_assert(BlockSize >= 32 && BlockSize <= 1024 && BlockSize % 32 == 0,
                "BlockSize: a multiple of 32 up to 1024");
  static_assert(ItemsPerThread >= 1, "at least one output per thread");

 public:
  static constexpr int tile = layout::tile;  ///< outputs per call
  static constexpr int items_per_thread = ItemsPerThread;

  /// Declare it __shared__: the tile and its halo, padded to 16-byte vectors.
  struct storage {
    alignas(16) T data[layout::size];
  };

  __device__ explicit stencil1d(storage& s) : s_(s) {
    detail::require_block_shape(BlockSize, 1, 1);
  }

  /// Writes out[tile_begin, tile_begin + tile), clipped to n (a partial tile), from
  /// in[tile_begin - Rad, tile_begin + tile + Rad).
  template <class Weights>
  __device__ void apply(const T* in, T* out, std::size_t n, std::size_t tile_begin,
                        const Weights& weights, const boundary& b) {
    static_assert(detail::weights_radius<Weights> == Rad,
                  "the weights' radius differs from the stencil's");
    detail::stencil_tile<Rad, BlockSize, ItemsPerThread>(
        s_.data, in, out, static_cast<std::int64_t>(n), static_cast<std::int64_t>(tile_begin),
        weights, b);
  }

  /// The thread's outputs of the tile in registers, for a kernel that finishes them itself:
  /// outputs[j] is the output at tile_begin + offset(j). Outputs at or past n are unspecified.
  template <class Weights>
  __device__ void apply(const T* in, std::size_t n, std::size_t tile_begin, const Weights& weights,
                        const boundary& b, T (&outputs)[ItemsPerThread]) {
    static_assert(detail::weights_radius<Weights> == Rad,
                  "the weights' radius differs from the stencil's");
    detail::stencil_load<Rad, BlockSize, ItemsPerThread>(s_.data, in, static_cast<std::int64_t>(n),
                                                         static_cast<std::int64_t>(tile_begin), b);
    __syncthreads();
    detail::stencil_compute<Rad, BlockSize, ItemsPerThread>(
        s_.data, weights, [&](int j, const T(&result)[layout::unit]) {
#pragma unroll
          for (int k = 0; k < layout::unit; ++k) {
            outputs[j * layout::unit + k] = result[k];
          }
        });
  }

  /// The offset in the tile of this thread's output j (see apply with outputs).
  __device__ static int offset(int j) {
    return layout::unit_offset(j / layout::unit) + j % layout::unit;
  }

 private:
  storage& s_;
};

}  // namespace gpuprims
